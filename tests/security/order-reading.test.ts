// What a stranger's message can make the order reading store: counts past reason, signs and
// spellings of numbers, days years away, thousands of lines, look-alike characters. Each post is
// stored with an analysis of the stored shape, its order bounded.
import { beforeAll, describe, expect, it } from 'vitest'
import { analysisSchema } from '#app/analysis/analysis-schema'
import { storedRows } from '#tests/support/database'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

function post(server: RunningServer, message: string) {
  return fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Hostile Hal', email: 'hal@example.com', message }),
  })
}

async function orderOf(server: RunningServer, message: string) {
  const answer = await post(server, message)
  expect(answer.status).toBe(201)
  const { data } = await answer.json()
  expect(analysisSchema.safeParse(data.analysis).success, message.slice(0, 60)).toBe(true)
  return data.analysis.order
}

describe('the order read from hostile messages', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

  it.each([
    ['a count past reason', 'Please reserve 99999999999999999999 dozen eggs'],
    ['a zero', 'Please reserve 0 dozen eggs'],
    ['not a number', 'Please reserve NaN dozen eggs and Infinity jars of honey'],
  ])('reads no count out of bounds from %s', async (_case, message) => {
    const order = await orderOf(server, message)
    for (const line of order?.lines ?? []) {
      expect(line.quantity).toBeGreaterThan(0)
      expect(line.quantity).toBeLessThanOrEqual(100_000)
    }
  })

  it('takes a minus sign for a dash, never for a negative count', async () => {
    expect((await orderOf(server, 'Please reserve -5 jars of honey')).lines).toEqual([
      { product: 'honey', quantity: 5, unit: 'jar' },
    ])
  })

  it('reads full-width digits and hidden joiners as the count they show', async () => {
    expect((await orderOf(server, 'Please reserve ２ dozen eggs')).lines).toEqual([
      { product: 'eggs', quantity: 2, unit: 'dozen' },
    ])
    expect((await orderOf(server, 'Please reserve two\u200b dozen\u202e eggs')).lines).toEqual([
      { product: 'eggs', quantity: 2, unit: 'dozen' },
    ])
  })

  it.each(['in 99999999 days', '31/12/9999', 'in 10000 weeks', 'the 99th'])(
    'names no pick-up day for "%s"',
    async (words) => {
      expect((await orderOf(server, `Please reserve a dozen eggs for ${words}`)).when).toBeNull()
    },
  )

  it('keeps at most 50 lines and 10 things not placed, however many a message names', async () => {
    const message = 'please reserve 2 jars of honey, a bag of flour, '.repeat(110).slice(0, 5000)
    const order = await orderOf(server, message)
    expect(order.lines).toHaveLength(50)
    expect(order.unplaced.length).toBeLessThanOrEqual(10)
  })

  it('stores every post, each with its analysis', () => {
    const rows = storedRows(server.databasePath)
    expect(rows.length).toBeGreaterThanOrEqual(10)
    for (const row of rows) expect(JSON.parse(String(row.analysis))).toMatchObject({ source: 'offline' })
  })
})
