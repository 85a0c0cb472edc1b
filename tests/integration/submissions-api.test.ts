import { describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { sharedServerWithLiveClient } from '#tests/support/shared-server'

const shared = sharedServerWithLiveClient()

function post(body: unknown) {
  return fetch(`${shared.server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

const valid = { name: 'Maggie Holt', email: 'maggie@example.com', message: 'Do you have duck eggs this week?' }

describe('POST /api/submissions', () => {
  it('answers 201, stores the row and broadcasts NEW_SUBMISSION with the same submission', async () => {
    const before = storedRows(shared.server.databasePath).length
    const response = await post(valid)
    expect(response.status).toBe(201)
    const body = await response.json()
    expect(body.message).toBe('Thank you! Your message has reached the farm.')
    expect(body.data).toMatchObject({ ...valid, id: expect.any(Number) })
    expect(typeof body.data.aiResponse).toBe('string')
    expect(body.data.analysis).toMatchObject({ intents: ['product_inquiry'], products: ['eggs'], source: 'offline' })
    expect(new Date(body.data.createdAt).toISOString()).toBe(body.data.createdAt)

    const rows = storedRows(shared.server.databasePath)
    expect(rows).toHaveLength(before + 1)
    expect(rows.at(-1)).toMatchObject({ id: body.data.id, ...valid, ai_response: body.data.aiResponse })
    expect(JSON.parse(rows.at(-1)?.analysis as string)).toEqual(body.data.analysis)

    const pushed = await shared.live.next()
    // With the counts it moved, so the inbox shows them without asking again.
    expect(pushed).toEqual({
      type: 'NEW_SUBMISSION',
      data: body.data,
      counts: expect.arrayContaining([
        { kind: 'status', value: 'new', count: expect.any(Number), at: expect.any(Number) },
      ]),
    })
  })

  it('keeps the values exactly as typed', async () => {
    const padded = { name: '  Tom  ', email: 'tom@example.com', message: ' Two dozen eggs, please.\n' }
    const body = await (await post(padded)).json()
    expect(body.data).toMatchObject(padded)
    expect((await shared.live.next()).data).toMatchObject(padded)
  })

  const invalidCases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
    ['a missing name', { ...valid, name: '' }, { name: 'Name is required' }],
    ['a missing email', { ...valid, email: '' }, { email: 'Email is required' }],
    ['a missing message', { ...valid, message: '' }, { message: 'Message is required' }],
    ['an email without an at sign', { ...valid, email: 'maggie.example.com' }, { email: 'Invalid email format' }],
    [
      'an email without a dot after the at sign',
      { ...valid, email: 'maggie@example' },
      { email: 'Invalid email format' },
    ],
    [
      'an email with nothing before the at sign',
      { ...valid, email: '@example.com' },
      { email: 'Invalid email format' },
    ],
    ['an email with a space', { ...valid, email: 'mag gie@example.com' }, { email: 'Invalid email format' }],
    ['an empty body', {}, { name: 'Name is required', email: 'Email is required', message: 'Message is required' }],
  ]

  it.each(invalidCases)(
    'rejects %s with 400 and its message, storing and broadcasting nothing',
    async (_case, body, errors) => {
      const before = storedRows(shared.server.databasePath).length
      const response = await post(body)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const answer = await response.json()
      expect(answer.errors).toEqual(errors)
      expect(answer.error).toBe(`${Object.values(errors).join('. ')}.`)
      expect(storedRows(shared.server.databasePath)).toHaveLength(before)

      // The next broadcast must be the next valid submission, not the rejected one.
      const sentinel = await (await post({ ...valid, name: 'Sentinel' })).json()
      expect((await shared.live.next()).data).toEqual(sentinel.data)
    },
  )
})

describe('GET /api/submissions', () => {
  it('lists every submission newest first, in the shape the pages read', async () => {
    const created = []
    for (const name of ['First', 'Second', 'Third']) {
      created.push((await (await post({ ...valid, name })).json()).data)
      await shared.live.next()
    }
    const response = await fetch(`${shared.server.url}/api/submissions`)
    expect(response.status).toBe(200)
    const list = await response.json()
    const ids = list.map((submission: { id: number }) => submission.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(list.slice(0, 3)).toEqual(created.reverse())
    expect(Object.keys(list[0]).sort()).toEqual([
      'aiResponse',
      'analysis',
      'answersUpdate',
      'awaitingAnalysis',
      'createdAt',
      'email',
      'history',
      'id',
      'message',
      'name',
      'replies',
      'replyCount',
      'spam',
      'status',
    ])
  })

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await fetch(`${shared.server.url}/api/harvest`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'There is no API at /api/harvest.' })
  })
})
