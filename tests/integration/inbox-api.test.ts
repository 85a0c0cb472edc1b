import { beforeAll, describe, expect, it } from 'vitest'
import { seedSubmissions } from '#tests/support/seed'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

const seeded = 260

describe('GET /api/submissions over a seeded inbox', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
    seedSubmissions(server.databasePath, seeded)
  })

  const get = (query: string) => fetch(`${server.url}/api/submissions${query}`)
  const nextOf = (answer: Response) => /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1]

  it('answers the newest 100 by default, with a Link to the next older page', async () => {
    const answer = await get('')
    const list = await answer.json()
    expect(list).toHaveLength(100)
    expect(list[0].id).toBe(seeded)
    expect(list[99].id).toBe(seeded - 99)
    expect(nextOf(answer)).toBe(`${server.url}/api/submissions?before=${seeded - 99}&limit=100`)
  })

  it('walks every submission once, newest first, by following Link', async () => {
    const ids: number[] = []
    let next: string | undefined = `${server.url}/api/submissions?limit=37`
    let pages = 0
    while (next) {
      const answer = await fetch(next)
      ids.push(...(await answer.json()).map((submission: { id: number }) => submission.id))
      next = nextOf(answer)
      pages++
    }
    expect(pages).toBe(Math.ceil(seeded / 37))
    expect(ids).toEqual(Array.from({ length: seeded }, (_, index) => seeded - index))
  })

  it('keeps search and filters in the Link, and pages them to the end', async () => {
    const first = await get('?intent=wholesale&limit=20')
    const page = await first.json()
    expect(
      page.every((submission: { analysis: { intents: string[] } }) =>
        submission.analysis.intents.includes('wholesale'),
      ),
    ).toBe(true)
    const next = new URL(nextOf(first)!)
    expect(Object.fromEntries(next.searchParams)).toEqual({
      intent: 'wholesale',
      before: String(page.at(-1).id),
      limit: '20',
    })
    let total = page.length
    let link = nextOf(first)
    while (link) {
      const answer = await fetch(link)
      total += (await answer.json()).length
      link = nextOf(answer)
    }
    // The second of every six seeded messages is a wholesale order.
    expect(total).toBe(Array.from({ length: seeded }, (_, index) => index).filter((index) => index % 6 === 1).length)
  })

  it('searches names, emails (by domain) and messages, case-insensitively', async () => {
    const byDomain = await (await get('?q=corner-shop.co.uk&limit=500')).json()
    // Every fourth seeded sender writes from corner-shop.co.uk.
    expect(byDomain).toHaveLength(seeded / 4)
    expect(byDomain.every((submission: { email: string }) => submission.email.endsWith('@corner-shop.co.uk'))).toBe(
      true,
    )
    const byWord = await (await get('?q=PUMPKINS&limit=500')).json()
    expect(byWord.length).toBeGreaterThan(0)
    expect(byWord.every((submission: { message: string }) => /pumpkins/i.test(submission.message))).toBe(true)
    expect(await (await get('?q=nobody-writes-this')).json()).toEqual([])
  })

  it('answers without Link on the last page', async () => {
    const answer = await get(`?before=5`)
    expect((await answer.json()).map((submission: { id: number }) => submission.id)).toEqual([4, 3, 2, 1])
    expect(answer.headers.get('link')).toBeNull()
  })

  it.each([
    ['?limit=0', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['?limit=501', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['?before=x', 'The "before" parameter must be a submission id.'],
    ['?urgency=soon', 'The "urgency" parameter must be high or normal.'],
    ['?intent=gossip', expect.stringContaining('The "intent" parameter must be one of')],
    ['?status=closed', 'The "status" parameter must be new or handled.'],
  ])('answers %s with 400 and a clear error', async (query, error) => {
    const answer = await get(query)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ error })
  })
})
