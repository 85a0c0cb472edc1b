import AxeBuilder from '@axe-core/playwright'
import Sqlite from 'better-sqlite3'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { expect, openHydrated, updatesSiteTest, type Page } from './fixtures'

/**
 * A signed-in owner's browser on a site whose mailbox brought back a conversation: the farm's
 * reply, the visitor's answer (with a file, and one from another address), an out-of-office, a
 * bounced reply, and a bounced update. Written into the database as the mailbox reader writes
 * them (the reading itself is tested against Postfix and Dovecot in tests/integration/mail-back).
 */
const test = updatesSiteTest.extend<{ lead: number }>({
  lead: async ({ server }, use) => {
    const sqlite = new Sqlite(server.databasePath)
    const at = Date.parse('2026-11-26T09:00:00Z')
    const lead = Number(
      sqlite
        .prepare(
          "INSERT INTO submissions (name, email, message, created_at, status) VALUES ('Ann Baker', 'ann@example.com', 'Could I order two dozen eggs for Saturday?', ?, 'new')",
        )
        .run(at).lastInsertRowid,
    )
    const mail = sqlite.prepare(
      'INSERT INTO replies (submission_id, kind, to_address, address_key, text, message_id, created_at, attachments) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const owe = sqlite.prepare(
      "INSERT INTO deliveries (kind, submission_id, reply_id, state, next_attempt_at, created_at, sent_at, last_error) VALUES ('visitor-mail', ?, ?, ?, ?, ?, ?, ?)",
    )
    const reply = mail.run(
      lead,
      'reply',
      'ann@example.com',
      'ann@example.com',
      'Yes, we have eggs on Saturday.',
      '<r1@bramble.example>',
      at + 60_000,
      null,
    )
    owe.run(lead, reply.lastInsertRowid, 'sent', at, at + 60_000, at + 61_000, null)
    mail.run(
      lead,
      'automatic-answer',
      'ann@example.com',
      'ann@example.com',
      'I am away until Monday.',
      '<a1@example.com>',
      at + 120_000,
      null,
    )
    mail.run(
      lead,
      'answer',
      'ann@example.com',
      'ann@example.com',
      'Lovely, two dozen please. <b>Not bold</b>',
      '<a2@example.com>',
      at + 180_000,
      JSON.stringify([{ name: 'map-to-the-farm.pdf', bytes: 2_048 }]),
    )
    mail.run(
      lead,
      'answer',
      'sam@example.com',
      'sam@example.com',
      'Ann asked me to say we will pick them up.',
      '<a3@example.com>',
      at + 240_000,
      null,
    )
    const second = mail.run(
      lead,
      'reply',
      'ann@example.com',
      'ann@example.com',
      'See you Saturday.',
      '<r2@bramble.example>',
      at + 300_000,
      null,
    )
    owe.run(
      lead,
      second.lastInsertRowid,
      'bounced',
      at,
      at + 300_000,
      at + 301_000,
      '552 5.2.2 <ann@example.com>: mailbox full',
    )
    const subscriber = sqlite
      .prepare(
        "INSERT INTO subscribers (email, address_key, name, status, consent, added_by, subscribed_at, created_at, last_error) VALUES ('gone@example.com', 'gone@example.com', 'Gone', 'undeliverable', 'asked at the stall', 'owner', ?, ?, '550 5.1.1 no such user')",
      )
      .run(at, at)
    void subscriber
    const returned = sqlite
      .prepare(
        "INSERT INTO returned_mails (kind, address, address_key, permanent, status, words, source, received_at) VALUES ('bounce', 'gone@example.com', 'gone@example.com', 1, '5.1.1', '550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown', ?, ?)",
      )
      .run(
        'Final-Recipient: rfc822; gone@example.com\nAction: failed\nStatus: 5.1.1\n<script>alert(1)</script>',
        at + 400_000,
      )
    sqlite
      .prepare(
        "INSERT INTO mail_suppressions (address_key, kind, returned_mail_id, since) VALUES ('gone@example.com', 'bounce', ?, ?)",
      )
      .run(returned.lastInsertRowid, at + 400_000)
    sqlite.close()
    await use(lead)
  },
  context: async ({ context, server }, use) => {
    const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    await use(context)
  },
})

async function expectConversation(page: Page, lead: number) {
  const card = page.locator(`#submission-${lead}`)
  const mails = card.getByTestId('reply')
  await expect(mails).toHaveCount(5)
  await expect(mails.nth(1)).toContainText('Automatic answer')
  await expect(mails.nth(1)).toContainText('I am away until Monday.')
  await expect(mails.nth(2)).toContainText('They replied')
  await expect(mails.nth(2)).toContainText('Lovely, two dozen please. <b>Not bold</b>')
  await expect(mails.nth(2)).toContainText('map-to-the-farm.pdf (2 KB)')
  await expect(mails.nth(3)).toContainText('From sam@example.com, not the address they wrote from.')
  await expect(mails.nth(4)).toContainText('Bounced')
  await expect(mails.nth(4)).toContainText('It came back: 552 5.2.2 <ann@example.com>: mailbox full')
  await expect(mails.nth(4).getByRole('button', { name: /^Try again: your reply of/ })).toBeVisible()
}

test.describe('what came back, on the card and the updates page', () => {
  test('the card shows their answers apart from the farm’s mails, with JavaScript', async ({ page, lead }) => {
    await openHydrated(page, '/farm-sales')
    await expectConversation(page, lead)
    const scan = await new AxeBuilder({ page }).include(`#submission-${lead}`).analyze()
    expect(scan.violations).toEqual([])
  })

  test('and without JavaScript; a bounced update is read as it came and its stop undone', async ({
    browser,
    server,
    lead,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const [name, value] = (await signInAsOwner(server.url, password)).split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    const page = await context.newPage()
    await page.goto(`${server.url}/farm-sales`)
    await expectConversation(page, lead)

    await page.goto(`${server.url}/farm-sales/updates`)
    const section = page.getByRole('region', { name: 'What came back' })
    await expect(section).toContainText('Bounced: gone@example.com')
    await expect(section).toContainText('550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown')
    const asItCame = await page.request.get(`${server.url}/farm-sales/updates/returned/1`)
    expect(await asItCame.text()).toContain('<script>alert(1)</script>')
    expect(asItCame.headers()['content-type']).toBe('text/plain; charset=utf-8')
    await section.getByRole('button', { name: 'Mail gone@example.com again' }).click()
    await expect(page).toHaveURL(`${server.url}/farm-sales/updates`)
    await expect(page.getByRole('region', { name: 'What came back' })).not.toContainText('Mail them again')
    const sqlite = new Sqlite(server.databasePath, { readonly: true })
    expect(sqlite.prepare("SELECT status FROM subscribers WHERE email = 'gone@example.com'").pluck().get()).toBe(
      'subscribed',
    )
    sqlite.close()
    await context.close()
  })

  test('the updates page’s new section is clean in axe at 1280 and 375 px', async ({ page, lead }) => {
    void lead
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 })
      await openHydrated(page, '/farm-sales/updates')
      await expect(page.getByRole('region', { name: 'What came back' })).toContainText('Bounced: gone@example.com')
      const scan = await new AxeBuilder({ page }).analyze()
      expect(scan.violations).toEqual([])
    }
  })
})
