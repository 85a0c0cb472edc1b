import { beforeAll, describe, expect, it } from 'vitest'
import { parseCsv } from '#tests/support/csv-parse'
import { rawRequest } from '#tests/support/raw-request'
import { seedSubmissions } from '#tests/support/seed'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile, serverPerTest } from '#tests/support/server-per-test'

const seeded = 1_200

describe('GET /api/submissions.csv', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    seedSubmissions(server.databasePath, seeded)
    await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: '=HYPERLINK("http://evil.example")',
        email: 'eve@example.com',
        message: 'Line one\r\nLine "two", with a comma',
      }),
    })
  })

  async function exported(query = '') {
    const answer = await fetch(`${server.url}/api/submissions.csv${query}`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="farm-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const bytes = new Uint8Array(await answer.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    return parseCsv(new TextDecoder().decode(bytes.slice(3)))
  }

  it('exports the whole inbox, newest first, past any page size, with the header row', async () => {
    const [header, ...rows] = await exported()
    expect(header).toEqual([
      'id',
      'received',
      'received (UTC)',
      'name',
      'email',
      'message',
      'status',
      'spam',
      'intents',
      'products',
      'urgency',
      'sentiment',
      'AI analysis',
    ])
    expect(rows).toHaveLength(seeded + 1)
    expect(rows.map((row) => Number(row[0]))).toEqual(
      Array.from({ length: seeded + 1 }, (_, index) => seeded + 1 - index),
    )
    // The newest seeded row (see tests/support/seed.ts): the eighth person, the sixth message.
    expect(rows[1]).toEqual([
      String(seeded),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
      `Hana Sato ${seeded - 1}`,
      `hana${seeded - 1}@cafe.example`,
      'Lovely pumpkins, thank you!',
      'new',
      '',
      'feedback',
      'pumpkins',
      'normal',
      'neutral',
      'Read offline.',
    ])
  })

  it('quotes line breaks, quotes and commas, and defuses a formula', async () => {
    const [, eve] = await exported()
    expect(eve![3]).toBe(`'=HYPERLINK("http://evil.example")`)
    expect(eve![5]).toBe('Line one\r\nLine "two", with a comma')
  })

  it('takes the list’s search and filters', async () => {
    const [, ...wholesale] = await exported('?intent=wholesale')
    expect(wholesale.length).toBe(
      Array.from({ length: seeded }, (_, index) => index).filter((index) => index % 6 === 1).length,
    )
    for (const row of wholesale) expect(row[8]).toContain('wholesale')
    const [, ...domain] = await exported('?q=corner-shop.co.uk')
    expect(domain.length).toBe(seeded / 4)
    const [, ...spam] = await exported('?spam=true')
    expect(spam).toEqual([])
  })

  it('answers a bad view with 400 JSON and other methods with 405', async () => {
    const bad = await fetch(`${server.url}/api/submissions.csv?urgency=soon`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'The "urgency" parameter must be high or normal.' })
    const post = await rawRequest(server.url, {
      path: '/api/submissions.csv',
      headers: { 'Content-Type': 'text/csv', 'Content-Length': '0' },
      body: '',
    })
    expect(post.status).toBe(405)
  })
})

describe('GET /api/submissions.csv behind OWNER_PASSWORD', () => {
  const serve = serverPerTest()

  it('is for the owner only, on every spelling', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: 'mine alone' } })
    for (const path of [
      '/api/submissions.csv',
      '/api/submissions%2Ecsv',
      '/API/Submissions.CSV',
      '/api/submissions.csv/',
    ]) {
      const answer = await rawRequest(server.url, { method: 'GET', path })
      expect({ path, status: answer.status }).toEqual({ path, status: 401 })
      expect(answer.text).not.toContain('@example.com')
    }
  })
})
