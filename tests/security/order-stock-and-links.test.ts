// Orders confirmed through the card's own form, then what the rest of the site does to them: a
// person erased, the week's list saved from a page opened before the order, the list's unit
// changed. The order's link must stay one order's key, and the stock what is really left.
import Sqlite from 'better-sqlite3'
import { beforeEach, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import {
  dayFromToday,
  draftedConfirmation,
  eggsAndHoney,
  orderForm,
  postCardForm,
  postOrderLead,
  setWeekList,
} from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const day = dayFromToday(3)
const serve = serverPerTest('SIGKILL')
let server: RunningServer
let owner: string

const siteEnv = {
  OWNER_PASSWORD: ownerPassword,
  // Mail is set up (to nowhere that answers): the confirmation is owed, the order stored.
  SMTP_URL: 'smtp://127.0.0.1:9',
  NOTIFY_EMAIL: 'owner@bramble.example',
  FARM_PRODUCTS: 'eggs, honey',
  TRUST_PROXY: 'loopback',
}

beforeEach(async () => {
  server = await serve({ env: siteEnv })
  setWeekList(server.databasePath, [
    { product: 'eggs', priceCents: 400, unit: 'a dozen', stock: 5 },
    { product: 'honey', priceCents: 550, unit: 'a jar', stock: null },
  ])
  owner = await signInAsOwner(server.url, ownerPassword)
})

const eggsLeft = () =>
  (
    readRows(server.databasePath, "SELECT stock FROM week_list WHERE product = 'eggs'")[0] as {
      stock: number
    }
  ).stock

/** A visitor's message, its order of two dozen eggs confirmed by the owner; the token its confirmation carries. */
async function confirmedOrder(name: string, email: string) {
  const leadId = await postOrderLead(server, { name, email, message: 'Two dozen eggs, please' }, eggsAndHoney(day))
  const form = orderForm(leadId, 'order-confirm', {
    lines: [['eggs', '2', 'dozen']],
    date: day,
    from: '09:00',
    to: '12:00',
    text: 'Yours: {order link}',
  })
  const answer = await postCardForm(server, owner, form)
  expect(answer.status).toBe(303)
  const [reply] = readRows(
    server.databasePath,
    `SELECT text FROM replies WHERE submission_id = ${leadId} ORDER BY id DESC LIMIT 1`,
  ) as Array<{ text: string }>
  const token = /order\?token=([^\s]+)/.exec(reply!.text)![1]!
  return { leadId, token }
}

const forget = (email: string) =>
  fetch(`${server.url}/api/people?email=${encodeURIComponent(email)}`, {
    method: 'DELETE',
    headers: { Cookie: owner },
  })

it('an erased person’s order link opens no one’s order: not the next visitor’s, and cancels nothing', async () => {
  const ana = await confirmedOrder('Ana Lima', 'ana@example.com')
  expect((await forget('ana@example.com')).status).toBe(200)
  const ben = await confirmedOrder('Ben Hale', 'ben@example.com')
  // Ana's old mail still holds her link.
  const page = await fetch(`${server.url}/order?token=${ana.token}`)
  const html = (await page.text()).replace(/<!-- -->/g, '')
  expect(html).not.toContain('Ben Hale')
  expect(page.status).toBe(404)
  const cancel = await fetch(`${server.url}/order?token=${ana.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'intent=cancel',
  })
  expect(cancel.status).toBe(404)
  expect(readRows(server.databasePath, `SELECT status FROM orders WHERE submission_id = ${ben.leadId}`)).toEqual([
    { status: 'confirmed' },
  ])
})

it('erasing a person before their pick-up puts back the eggs their order took', async () => {
  await confirmedOrder('Ana Lima', 'ana@example.com')
  expect(eggsLeft()).toBe(3)
  expect((await forget('ana@example.com')).status).toBe(200)
  // No one will come for them: they are for sale again.
  expect(eggsLeft()).toBe(5)
})

it('the week’s list saved from a page opened before an order keeps what the order took', async () => {
  // The owner opens the list: 5 dozen left, in the form's count.
  const editor = await fetch(`${server.url}/farm-sales/this-week`, { headers: { Cookie: owner } })
  expect(editor.status).toBe(200)
  expect(await editor.text()).toMatch(/name="stock"[^>]*value="5"|value="5"[^>]*name="stock"/)
  // Meanwhile a helper confirms two dozen.
  await confirmedOrder('Ana Lima', 'ana@example.com')
  expect(eggsLeft()).toBe(3)
  // The owner changes only the note, and saves the form as it was loaded.
  const saved = await fetch(`${server.url}/farm-sales/this-week`, {
    method: 'POST',
    headers: { Cookie: owner, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      product: 'eggs',
      availability: 'available',
      price: '4',
      unit: 'a dozen',
      note: 'Brown and white',
      readyFrom: '',
      stock: '5',
    }),
    redirect: 'manual',
  })
  expect([303, 409]).toContain(saved.status)
  // Five dozen for sale again would promise two dozen twice.
  expect(eggsLeft()).toBe(3)
})

it('a cancel after the list’s unit changed puts back what the order took in the list’s new unit', async () => {
  const ana = await confirmedOrder('Ana Lima', 'ana@example.com')
  expect(eggsLeft()).toBe(3)
  // The owner now counts eggs one by one: 3 dozen are 36.
  setWeekList(server.databasePath, [{ product: 'eggs', priceCents: 40, unit: 'each', stock: 36 }])
  const cancel = await fetch(`${server.url}/order?token=${ana.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'intent=cancel',
  })
  expect(cancel.status).toBe(200)
  // Two dozen back are 24 eggs, not 2.
  expect(eggsLeft()).toBe(60)
})

it('the confirmation mails the total the order is kept with, though the list’s price changed after the draft', async () => {
  const leadId = await postOrderLead(
    server,
    { name: 'Ana Lima', email: 'ana@example.com', message: 'Two dozen eggs, please' },
    eggsAndHoney(day),
  )
  const fields = {
    lines: [['eggs', '2', 'dozen']] as Array<[string, string, string]>,
    date: day,
    from: '09:00',
    to: '12:00',
  }
  const drafted = await postCardForm(server, owner, orderForm(leadId, 'order-draft', { ...fields, text: '' }))
  expect(drafted.status).toBe(200)
  const text = draftedConfirmation(drafted.html, leadId)!
  expect(text).toContain('Total: €8')
  // The owner raises the price while the draft is read.
  setWeekList(server.databasePath, [{ product: 'eggs', priceCents: 500, unit: 'a dozen', stock: 5 }])
  await postCardForm(server, owner, orderForm(leadId, 'order-confirm', { ...fields, text }))
  const kept = readRows(server.databasePath, 'SELECT total_cents AS cents FROM orders') as Array<{ cents: number }>
  const mailed = readRows(server.databasePath, "SELECT text FROM replies WHERE kind = 'reply'") as Array<{
    text: string
  }>
  // Refused (nothing kept, nothing mailed), or kept at the total the visitor is told.
  expect(mailed.map(({ text }) => Number(/Total: €([\d.]+)/.exec(text)![1]) * 100)).toEqual(
    kept.map(({ cents }) => cents),
  )
})

it('a confirmed order still to be picked up outlives HANDLED_RETENTION_DAYS: its lead is not deleted under it', async () => {
  const ana = await confirmedOrder('Ana Lima', 'ana@example.com')
  // Another handled lead, as old, whose order is done with: the retention may delete it.
  const bob = await confirmedOrder('Bob Reed', 'bob@example.com')
  const sqlite = new Sqlite(server.databasePath)
  try {
    // Both wrote a week ago; Bob's order was collected.
    sqlite.prepare('UPDATE submissions SET created_at = ?').run(Date.now() - 7 * 24 * 60 * 60 * 1000)
    sqlite.prepare("UPDATE orders SET status = 'collected' WHERE submission_id = ?").run(bob.leadId)
  } finally {
    sqlite.close()
  }
  await server.stop('SIGTERM')
  server = await serve({ databasePath: server.databasePath, env: { ...siteEnv, HANDLED_RETENTION_DAYS: '1' } })
  await expect.poll(() => server.output()).toContain('deleted handled submissions past their retention')
  // Ana comes on Saturday: her order is on the farm's list, and her link opens it.
  expect(readRows(server.databasePath, `SELECT status FROM orders WHERE submission_id = ${ana.leadId}`)).toEqual([
    { status: 'confirmed' },
  ])
  expect((await fetch(`${server.url}/order?token=${ana.token}`)).status).toBe(200)
})
