// A confirmation is a mail to a visitor, as a reply is: it counts against the same replies a
// minute of each person of the team (REPLY_RATE_LIMIT), whichever door sends it.
import { beforeAll, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { dayFromToday, eggsAndHoney, orderForm, postCardForm, postOrderLead, setWeekList } from '#tests/support/orders'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson } from '#tests/support/team'

const day = dayFromToday(3)
const serve = serverPerFile('SIGKILL')
let server: RunningServer
let helper: string

beforeAll(async () => {
  server = await serve({
    env: {
      OWNER_PASSWORD: ownerPassword,
      SMTP_URL: 'smtp://127.0.0.1:9',
      NOTIFY_EMAIL: 'owner@bramble.example',
      FARM_PRODUCTS: 'eggs, honey',
      TRUST_PROXY: 'loopback',
      REPLY_RATE_LIMIT: '2',
    },
  })
  // Honey is not counted: nothing but the limit stops a confirmation.
  setWeekList(server.databasePath, [{ product: 'honey', priceCents: 550, unit: 'a jar', stock: null }])
  const owner = await signInAsOwner(server.url, ownerPassword)
  helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
})

it('a helper’s confirmations count against their replies a minute: the third within the minute is refused', async () => {
  const statuses: number[] = []
  for (const n of [1, 2, 3]) {
    const leadId = await postOrderLead(
      server,
      { name: `Visitor ${n}`, email: `visitor${n}@example.com`, message: 'A jar of honey, please' },
      eggsAndHoney(day),
    )
    const form = orderForm(leadId, 'order-confirm', {
      lines: [['honey', '1', 'jar']],
      date: day,
      text: 'Yours: {order link}',
    })
    statuses.push((await postCardForm(server, helper, form)).status)
  }
  expect(statuses).toEqual([303, 303, 429])
  expect(readRows(server.databasePath, "SELECT count(*) AS n FROM replies WHERE kind = 'reply'")).toEqual([{ n: 2 }])
})
