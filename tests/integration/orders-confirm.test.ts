// An order read from a lead's message, on its card: priced from this week's list, confirmed (the
// confirmation drafted first, then mailed through a real SMTP server on loopback, the order
// stored and the stock taken) or declined with words; as a browser without JavaScript sends it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { htmlErrors } from '#tests/support/html-checker'
import { readRows } from '#tests/support/database'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import {
  dayFromToday,
  draftedConfirmation,
  eggsAndHoney,
  orderForm,
  pageWords,
  postCardForm,
  postOrderLead,
  setWeekList,
} from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { serverPerTest } from '#tests/support/server-per-test'

const mailServers: MailServer[] = []
afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
const serve = serverPerTest()

const ann = { name: 'Ann Baker', email: 'ann.baker@example.com', message: 'Two dozen eggs and 3 jars of honey, please' }

async function site(env: Record<string, string> = {}) {
  const mail = await startMailServer()
  mailServers.push(mail)
  const server = await serve({
    env: {
      OWNER_PASSWORD: ownerPassword,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      NOTIFY_FROM: 'hello@bramble.example',
      FARM_NAME: 'Bramble Hill Farm',
      FARM_PRODUCTS: 'eggs, honey, cheese',
      ...env,
    },
  })
  setWeekList(server.databasePath, [
    { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 5 },
    { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
    { product: 'cheese', priceCents: 700, unit: 'a round', stock: 0 },
  ])
  return { server, mail, cookie: await signInAsOwner(server.url, ownerPassword) }
}

const toAnn = (mail: MailServer) =>
  mail.mails.filter((sent) => sent.to && !Array.isArray(sent.to) && sent.to.value[0]?.address === ann.email)

describe('an order on a lead’s card', () => {
  it('shows the order read and priced, with a total, what is sold out and what is not on the list', async () => {
    const { server, cookie } = await site()
    const day = dayFromToday(3)
    await postOrderLead(server, ann, {
      ...eggsAndHoney(day),
      lines: [...eggsAndHoney(day).lines, { product: 'cheese', quantity: 1, unit: 'round' }],
    })
    const page = await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })
    const words = pageWords(await page.text())
    expect(words).toContain('Order read from the message')
    expect(words).toMatch(/2 dozen eggs · 3 jars of honey · 1 round of cheese · for \w+day \d{1,2} \w+, 9:00–12:00/)
    expect(words).toContain('2 dozen eggs: €8 3 jars of honey: €16.50 1 round of cheese: €7 (sold out)')
    expect(words).toContain('Total €31.50')
    expect(words).toContain('Not on the list: a bag of flour')
  })

  it('drafts the confirmation, then stores the order, takes the stock and mails the visitor in one step', async () => {
    const { server, mail, cookie } = await site()
    const day = dayFromToday(3)
    const id = await postOrderLead(server, ann, eggsAndHoney(day))
    // The team makes it three dozen eggs and two jars, and picks it up from 10.
    const changed = {
      lines: [
        ['eggs', '3', 'dozen'],
        ['honey', '2', 'jar'],
        ['', '', ''],
      ] as Array<[string, string, string]>,
      date: day,
      from: '10:00',
      to: '12:00',
    }
    const drafted = await postCardForm(server, cookie, orderForm(id, 'order-draft', changed))
    expect(drafted.status).toBe(200)
    const text = draftedConfirmation(drafted.html, id)
    expect(text).toContain('Hello Ann Baker,')
    expect(text).toContain('- 3 dozen eggs: €12\n- 2 jars of honey: €11\nTotal: €23, to pay at pick-up.')
    expect(text).toContain('To see your order, or to cancel it: {order link}')
    expect(text).toMatch(/See you at the farm,\nBramble Hill Farm$/)
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])

    const confirmed = await postCardForm(
      server,
      cookie,
      orderForm(id, 'order-confirm', {
        ...changed,
        lines: changed.lines.slice(0, 2),
        text: `${text!}\nP.S. Bring a box.`,
      }),
    )
    expect(confirmed.status).toBe(303)
    expect(confirmed.location).toBe(`/farm-sales#submission-${id}`)
    expect(
      readRows(
        server.databasePath,
        'SELECT submission_id, status, pick_up_date, pick_up_from, pick_up_to, total_cents, confirmed_by FROM orders',
      ),
    ).toEqual([
      {
        submission_id: id,
        status: 'confirmed',
        pick_up_date: day,
        pick_up_from: '10:00',
        pick_up_to: '12:00',
        total_cents: 2300,
        confirmed_by: 1,
      },
    ])
    expect(
      readRows(
        server.databasePath,
        'SELECT product, quantity, unit, stock_taken, price_cents FROM order_lines ORDER BY position',
      ),
    ).toEqual([
      { product: 'eggs', quantity: 3, unit: 'dozen', stock_taken: 3, price_cents: 1200 },
      { product: 'honey', quantity: 2, unit: 'jar', stock_taken: null, price_cents: 1100 },
    ])
    expect(readRows(server.databasePath, 'SELECT type, by FROM order_events')).toEqual([
      { type: 'order.confirmed', by: 1 },
    ])
    expect(readRows(server.databasePath, 'SELECT product, stock FROM week_list ORDER BY product')).toEqual([
      { product: 'cheese', stock: 0 },
      { product: 'eggs', stock: 2 },
      { product: 'honey', stock: null },
    ])

    await expect.poll(() => toAnn(mail).length, { timeout: 10_000 }).toBe(1)
    const [sent] = toAnn(mail)
    expect(sent!.subject).toBe('Re: Your message to Bramble Hill Farm')
    expect(sent!.text).toContain('- 3 dozen eggs: €12\n- 2 jars of honey: €11\nTotal: €23, to pay at pick-up.')
    expect(sent!.text).toMatch(
      new RegExp(`To see your order, or to cancel it: ${server.url}/order\\?token=1\\.[A-Za-z0-9_-]{43}`),
    )
    expect(sent!.text).toContain('P.S. Bring a box.')

    // The card shows the order as confirmed, its thread the mail; confirming again is refused.
    const words = pageWords(await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text())
    expect(words).toMatch(
      /Order confirmed 3 dozen eggs · 2 jars of honey · for \w+day \d{1,2} \w+, 10:00–12:00 Total €23/,
    )
    expect(words).toContain('P.S. Bring a box.')
    const again = await postCardForm(server, cookie, orderForm(id, 'order-confirm', { ...changed, text: 'Again' }))
    expect(again.status).toBe(409)
    expect(pageWords(again.html)).toContain('This order is already confirmed: the card shows it.')
  })

  it('declines with the team’s words: a reply in the thread, no order, no stock taken', async () => {
    const { server, mail, cookie } = await site()
    const id = await postOrderLead(server, ann, eggsAndHoney(dayFromToday(2)))
    const declined = await postCardForm(
      server,
      cookie,
      orderForm(id, 'order-decline', { text: 'Hello Ann,\n\nWe are sorry: no eggs this week.\n\nBramble Hill Farm' }),
    )
    expect(declined.status).toBe(303)
    await expect.poll(() => toAnn(mail).length, { timeout: 10_000 }).toBe(1)
    expect(toAnn(mail)[0]!.text).toMatch(/^Hello Ann,\n\nWe are sorry: no eggs this week\./)
    expect(readRows(server.databasePath, 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
    expect(readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")).toEqual([{ stock: 5 }])
  })

  it('offers the tell-me link for what is sold out in the drafted decline, and the home page says sold out at zero', async () => {
    const { server, cookie } = await site({ UPDATES: 'true', PUBLIC_URL: 'http://localhost' })
    setWeekList(server.databasePath, [{ product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 0 }])
    await postOrderLead(server, ann, eggsAndHoney(dayFromToday(2)))
    const words = pageWords(await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text())
    expect(words).toContain('2 dozen eggs: €8 (sold out)')
    expect(words).toContain(
      'we are sorry: eggs are sold out this week, so we cannot take your order. To be told when eggs are ready: http://localhost/this-week/tell-me?product=eggs',
    )
    const home = pageWords(await (await fetch(server.url)).text())
    expect(home).toMatch(/Eggs €4 a dozen Sold out/)
  })

  it('is clean in the Nu HTML Checker: the card with its order read, and with its drafted confirmation', async () => {
    const { server, cookie } = await site()
    const day = dayFromToday(3)
    const id = await postOrderLead(server, ann, eggsAndHoney(day))
    const folder = mkdtempSync(join(tmpdir(), 'order-card-'))
    const read = await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text()
    const drafted = await postCardForm(
      server,
      cookie,
      orderForm(id, 'order-draft', { lines: [['eggs', '2', 'dozen']], date: day }),
    )
    expect(drafted.status).toBe(200)
    const files = [
      ['read.html', read],
      ['drafted.html', drafted.html],
    ].map(([name, html]) => {
      const file = join(folder, name!)
      writeFileSync(file, html!)
      return file
    })
    expect(htmlErrors(files)).toEqual([])
  })
})
