// The visitor's side of an order (issue 49, item 4): its page by the signed link in the
// confirmation, its cancel until the cut-off (the stock back, the team told live and by mail),
// and the reminder the day before. Orders are written straight into SQLite: confirming is the
// card's door, not this file's.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlErrors } from '#tests/support/html-checker'
import { readRows } from '#tests/support/database'
import { connectLive } from '#tests/support/live-client'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { dayFromToday, publishFindUs, seedOrder } from '#tests/support/orders'
import { freePort, tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

let mail: MailServer
beforeAll(async () => {
  mail = await startMailServer()
})
afterAll(() => mail?.close())
const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string> = {}, databasePath = tempDatabasePath(), port?: number) {
  port ??= await freePort()
  return serve({
    databasePath,
    port,
    env: {
      OWNER_PASSWORD: password,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      NOTIFY_FROM: 'Bramble Farm <farm@bramble.example>',
      FARM_NAME: 'Bramble Farm',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
  })
}

const page = (server: RunningServer, token: string) => fetch(`${server.url}/order?token=${token}`)
const cancel = (server: RunningServer, token: string) =>
  fetch(`${server.url}/order?token=${token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'intent=cancel',
  })
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ')

const orderRow = (server: RunningServer) => readRows(server.databasePath, 'SELECT status, changed_by FROM orders')[0]
const eggsLeft = (server: RunningServer) =>
  readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")[0]

describe('the order’s page', () => {
  it('shows the lines, the total, when, pay at pick-up, and until when it may be cancelled', async () => {
    const server = await site()
    const pickUpDate = dayFromToday(7)
    const { token } = seedOrder(server.databasePath, { pickUpDate })
    const answer = await page(server, token)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const text = textOf(await answer.text())
    expect(text).toContain('Your order from Bramble Farm')
    expect(text).toContain('For Ana Lima')
    expect(text).toMatch(/2 dozen eggs €8 1 jar of honey €5\.50 Total €13\.50/)
    expect(text).toContain('You pay at pick-up: there is nothing to pay online and no account to make.')
    expect(text).toMatch(/When \w+day \d{1,2} \w+, 9:00–12:00/)
    expect(text).toMatch(/You may cancel this order here until \w+day \d{1,2} \w+ at 18:00\./)
    expect(text).toContain('Cancel my order')
  })

  it('is valid HTML in each of its states', async () => {
    const server = await site()
    publishFindUs(server.databasePath, {
      address: 'Long Lane\nAshby',
      directions: 'Past the church.',
      phone: '+44 1632 960 123',
    })
    const open = seedOrder(server.databasePath, { pickUpDate: dayFromToday(7) })
    const late = seedOrder(server.databasePath, { pickUpDate: dayFromToday(0), email: 'late@example.com' })
    const dir = mkdtempSync(join(tmpdir(), 'order-pages-'))
    const files: string[] = []
    const keep = async (name: string, answer: Response, status: number) => {
      expect(answer.status, name).toBe(status)
      files.push(join(dir, `${name}.html`))
      writeFileSync(files.at(-1)!, await answer.text())
    }
    await keep('may-cancel', await page(server, open.token), 200)
    await keep('after-cut-off', await page(server, late.token), 200)
    await keep('refused', await cancel(server, late.token), 409)
    await keep('cancelled', await cancel(server, open.token), 200)
    await keep('broken-link', await page(server, '1.broken'), 404)
    expect(htmlErrors(files)).toEqual([])
  })
})

describe('cancelling by the link', () => {
  it('before the cut-off, without JavaScript: said, stored, the eggs back, the team told live and by mail', async () => {
    const server = await site()
    const cookie = await signInAsOwner(server.url, password)
    const { token, orderId, leadId } = seedOrder(server.databasePath, { pickUpDate: dayFromToday(3), eggsLeft: 1 })
    const tab = await connectLive(server.wsUrl, { Cookie: cookie })
    const answer = await cancel(server, token)
    expect(answer.status).toBe(200)
    const text = textOf(await answer.text())
    expect(text).toContain('Your order is cancelled. Bramble Farm has been told.')
    expect(text).not.toContain('Cancel my order')
    expect(orderRow(server)).toEqual({ status: 'cancelled', changed_by: null })
    expect(eggsLeft(server)).toEqual({ stock: 3 })
    expect(readRows(server.databasePath, 'SELECT order_id, type, by FROM order_events ORDER BY id')).toEqual([
      { order_id: orderId, type: 'order.confirmed', by: null },
      { order_id: orderId, type: 'order.cancelled', by: null },
    ])
    let message = await tab.next()
    while (message.type !== 'ORDER_CHANGED') message = await tab.next()
    expect(message).toMatchObject({ order: { id: orderId, leadId, status: 'cancelled' } })
    tab.close()
    // The owner is mailed as of an answer to the farm's mail: who, and what they did.
    await expect
      .poll(() => mail.mails.find((each) => each.text?.includes('Cancelled this order')), { timeout: 10_000 })
      .toBeTruthy()
    const told = mail.mails.find((each) => each.text?.includes('Cancelled this order'))!
    expect(told.text).toContain('Ana Lima <ana@example.com> replied:')
    expect(told.text).toMatch(/Cancelled this order by its link: 2 dozen eggs · 1 jar of honey, for \w+day/)
    // Opened again, the link shows the order as it is now, with nothing more to do.
    const again = textOf(await (await page(server, token)).text())
    expect(again).toContain('This order is cancelled.')
    expect(again).not.toContain('Cancel my order')
  })

  it('after the cut-off: the page says until when and how to reach the farm; a cancel is refused and changes nothing', async () => {
    const server = await site()
    const { token } = seedOrder(server.databasePath, { pickUpDate: dayFromToday(0) })
    const shown = textOf(await (await page(server, token)).text())
    expect(shown).toMatch(
      /It could be cancelled here until \w+day \d{1,2} \w+ at 18:00\. To change it now, answer the mail from Bramble Farm that confirmed it\./,
    )
    expect(shown).not.toContain('Cancel my order')
    const refused = await cancel(server, token)
    expect(refused.status).toBe(409)
    expect(textOf(await refused.text())).toMatch(/It could be cancelled here only until \w+day .* at 18:00\./)
    expect(orderRow(server)).toEqual({ status: 'confirmed', changed_by: null })
    expect(eggsLeft(server)).toEqual({ stock: 0 })
    expect(
      readRows(server.databasePath, "SELECT count(*) AS n FROM order_events WHERE type = 'order.cancelled'"),
    ).toEqual([{ n: 0 }])
  })
})

describe('the cut-off the owner sets', () => {
  it('moves at once on the order’s page when changed on the settings page; a value out of bounds is refused and not kept', async () => {
    const server = await site()
    const cookie = await signInAsOwner(server.url, password)
    const { token } = seedOrder(server.databasePath, { pickUpDate: '2030-06-15' })
    expect(textOf(await (await page(server, token)).text())).toContain('until Friday 14 June at 18:00.')
    const saved = await postSettingsPage(server, cookie, {
      section: 'orders',
      intent: 'save',
      ORDER_CANCEL_HOURS: '30',
      ORDER_REMINDERS: 'false',
    })
    expect(saved.status).toBe(303)
    expect(textOf(await (await page(server, token)).text())).toContain('until Thursday 13 June at 18:00.')
    for (const wrong of ['-1', '337', 'six']) {
      const refused = await postSettingsPage(server, cookie, {
        section: 'orders',
        intent: 'save',
        ORDER_CANCEL_HOURS: wrong,
        ORDER_REMINDERS: 'false',
      })
      expect([wrong, refused.status]).toEqual([wrong, 400])
    }
    expect(readRows(server.databasePath, "SELECT value FROM farm_settings WHERE key = 'ORDER_CANCEL_HOURS'")).toEqual([
      { value: '30' },
    ])
  })
})

describe('the reminder the day before', () => {
  it('is mailed once an order, through the engine, also across a restart; never while the owner has it off', async () => {
    const databasePath = tempDatabasePath()
    const port = await freePort()
    const off = await site({}, databasePath, port)
    seedOrder(off.databasePath, { pickUpDate: dayFromToday(1), confirmedDaysAgo: 3, email: 'remind-me@example.com' })
    await off.stop('SIGTERM')
    const remindedTo = () =>
      mail.mails.filter((each) => each.to && JSON.stringify(each.to).includes('remind-me@example.com'))
    expect(remindedTo()).toEqual([])
    const on = await site({ ORDER_REMINDERS: 'true' }, databasePath, port)
    await expect.poll(() => remindedTo().length, { timeout: 10_000 }).toBe(1)
    const [reminder] = remindedTo()
    expect(reminder!.subject).toBe('Re: Your message to Bramble Farm')
    expect(reminder!.text).toMatch(/A reminder: your order from Bramble Farm is ready to pick up tomorrow, \w+day/)
    expect(reminder!.text).toContain('Total €13.50, paid at pick-up.')
    expect(reminder!.text).toMatch(
      new RegExp(`To see your order[^\\n]*: http://127\\.0\\.0\\.1:${port}/order\\?token=\\d+\\.`),
    )
    await on.stop('SIGTERM')
    const again = await site({ ORDER_REMINDERS: 'true' }, databasePath, port)
    // A site looks as it starts, before it listens: the restarted one found the order reminded.
    expect(
      readRows(again.databasePath, "SELECT count(*) AS n FROM replies WHERE request_key LIKE 'order-reminder.%'"),
    ).toEqual([{ n: 1 }])
    expect(readRows(again.databasePath, "SELECT state FROM deliveries WHERE kind = 'visitor-mail'")).toEqual([
      { state: 'sent' },
    ])
    expect(remindedTo()).toHaveLength(1)
  })
})
