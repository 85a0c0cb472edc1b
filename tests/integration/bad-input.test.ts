import { describe, expect, it } from 'vitest'
import { storedRows } from '#tests/support/database'
import { rawRequest, type RawRequest } from '#tests/support/raw-request'
import { sharedServerWithLiveClient } from '#tests/support/shared-server'

const shared = sharedServerWithLiveClient()

const valid = { name: 'Nell Crane', email: 'nell@example.com', message: 'Are the strawberries ready?' }
const json = { 'Content-Type': 'application/json' }
const overLimit = 'x'.repeat(17 * 1024)

function api(body: unknown, headers: Record<string, string> = json): RawRequest {
  return { path: '/api/submissions', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }
}

function field(name: keyof typeof valid, value: unknown): RawRequest {
  return api({ ...valid, [name]: value })
}

/** A 400 whose `error` reads the field messages in order, as the API writes it. */
function invalid(errors: Record<string, string>) {
  return { status: 400, error: `${Object.values(errors).join('. ')}.`, errors }
}

interface BadInput {
  what: string
  request: RawRequest
  status: number
  error: string | RegExp
  errors?: Record<string, string>
}

const page = { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' }

const catalogue: BadInput[] = [
  // Fields, sent as JSON to the API.
  {
    what: 'name missing',
    request: api({ email: valid.email, message: valid.message }),
    ...invalid({ name: 'Name is required' }),
  },
  {
    what: 'name empty',
    request: field('name', ''),
    ...invalid({ name: 'Name is required' }),
  },
  {
    what: 'name only spaces',
    request: field('name', '   '),
    ...invalid({ name: 'Name is required' }),
  },
  {
    what: 'name a number',
    request: field('name', 42),
    ...invalid({ name: 'Name must be text' }),
  },
  {
    what: 'name null',
    request: field('name', null),
    ...invalid({ name: 'Name is required' }),
  },
  {
    what: 'name an array',
    request: field('name', ['Nell']),
    ...invalid({ name: 'Name must be text' }),
  },
  {
    what: 'name a nested object',
    request: field('name', { first: 'Nell', $gt: '' }),
    ...invalid({ name: 'Name must be text' }),
  },
  {
    what: 'name true',
    request: field('name', true),
    ...invalid({ name: 'Name must be text' }),
  },
  {
    what: 'name 101 characters',
    request: field('name', 'n'.repeat(101)),
    ...invalid({ name: 'Name must be at most 100 characters' }),
  },
  {
    what: 'name with a NUL byte',
    request: field('name', 'Nell\u0000'),
    ...invalid({ name: 'Name must not contain control characters' }),
  },
  {
    what: 'name with a newline',
    request: field('name', 'Nell\nCrane'),
    ...invalid({ name: 'Name must not contain control characters' }),
  },
  {
    what: 'name with a terminal escape',
    request: field('name', '\u001b[2JNell'),
    ...invalid({ name: 'Name must not contain control characters' }),
  },
  {
    what: 'email missing',
    request: api({ name: valid.name, message: valid.message }),
    ...invalid({ email: 'Email is required' }),
  },
  {
    what: 'email empty',
    request: field('email', ''),
    ...invalid({ email: 'Email is required' }),
  },
  {
    what: 'email without an at sign',
    request: field('email', 'nell.example.com'),
    ...invalid({ email: 'Invalid email format' }),
  },
  {
    what: 'email without a dot',
    request: field('email', 'nell@example'),
    ...invalid({ email: 'Invalid email format' }),
  },
  {
    what: 'email ending in a dot',
    request: field('email', 'nell@example.'),
    ...invalid({ email: 'Invalid email format' }),
  },
  {
    what: 'email with a space',
    request: field('email', 'nell crane@example.com'),
    ...invalid({ email: 'Invalid email format' }),
  },
  {
    what: 'email with two at signs',
    request: field('email', 'nell@@example.com'),
    ...invalid({ email: 'Invalid email format' }),
  },
  {
    what: 'email 255 characters',
    request: field('email', `${'e'.repeat(243)}@example.com`),
    ...invalid({ email: 'Email must be at most 254 characters' }),
  },
  {
    what: 'email with a header injection',
    request: field('email', 'nell@example.com\r\nBcc: all@example.com'),
    ...invalid({ email: 'Email must not contain control characters' }),
  },
  {
    what: 'email a number',
    request: field('email', 7),
    ...invalid({ email: 'Email must be text' }),
  },
  {
    what: 'message missing',
    request: api({ name: valid.name, email: valid.email }),
    ...invalid({ message: 'Message is required' }),
  },
  {
    what: 'message empty',
    request: field('message', ''),
    ...invalid({ message: 'Message is required' }),
  },
  {
    what: 'message only white space',
    request: field('message', ' \n\t '),
    ...invalid({ message: 'Message is required' }),
  },
  {
    what: 'message 5,001 characters',
    request: field('message', 'm'.repeat(5001)),
    ...invalid({ message: 'Message must be at most 5,000 characters' }),
  },
  {
    what: 'message with a NUL byte',
    request: field('message', 'Hi\u0000there'),
    ...invalid({ message: 'Message must not contain control characters' }),
  },
  {
    what: 'message with a bell',
    request: field('message', 'Hi\u0007'),
    ...invalid({ message: 'Message must not contain control characters' }),
  },
  {
    what: 'message an object',
    request: field('message', { text: 'Hi' }),
    ...invalid({ message: 'Message must be text' }),
  },
  {
    what: 'message an array of lines',
    request: field('message', ['Hi', 'there']),
    ...invalid({ message: 'Message must be text' }),
  },
  {
    what: 'every field the wrong type',
    request: api({ name: 1, email: false, message: [] }),
    ...invalid({ name: 'Name must be text', email: 'Email must be text', message: 'Message must be text' }),
  },
  // The body as a whole.
  {
    what: 'malformed JSON',
    request: api('{"name": "Nell",'),
    status: 400,
    error: 'The request body is not valid JSON.',
  },
  { what: 'an empty JSON body', request: api(''), status: 400, error: 'The request body is not valid JSON.' },
  {
    what: 'a JSON array',
    request: api([valid]),
    status: 400,
    error: 'Send a JSON object with name, email and message.',
  },
  {
    what: 'a JSON string',
    request: api('"hello"'),
    status: 400,
    error: 'Send a JSON object with name, email and message.',
  },
  { what: 'JSON null', request: api('null'), status: 400, error: 'Send a JSON object with name, email and message.' },
  {
    what: 'a body over 16 KB with a Content-Length',
    request: api({ ...valid, message: overLimit }),
    status: 413,
    error: 'The request body is larger than 16 KB.',
  },
  {
    what: 'a chunked body over 16 KB',
    request: { path: '/api/submissions', headers: json, body: ['{"name":"Nell","message":"', overLimit, '"}'] },
    status: 413,
    error: 'The request body is larger than 16 KB.',
  },
  {
    what: 'plain text',
    request: api('name=Nell', { 'Content-Type': 'text/plain' }),
    status: 415,
    error: /Content-Type: application\/json/,
  },
  {
    what: 'a urlencoded form to the API',
    request: api('name=Nell&email=n%40e.co&message=hi', { 'Content-Type': 'application/x-www-form-urlencoded' }),
    status: 415,
    error: /Content-Type: application\/json/,
  },
  {
    what: 'no Content-Type',
    request: api(JSON.stringify(valid), {}),
    status: 415,
    error: /Content-Type: application\/json/,
  },
  { what: 'PUT', request: { ...api(valid), method: 'PUT' }, status: 405, error: 'PUT is not allowed here.' },
  {
    what: 'DELETE',
    request: { method: 'DELETE', path: '/api/submissions' },
    status: 405,
    error: 'DELETE is not allowed here.',
  },
  { what: 'PATCH', request: { ...api(valid), method: 'PATCH' }, status: 405, error: 'PATCH is not allowed here.' },
  {
    what: 'a foreign Origin',
    request: api(valid, { ...json, Origin: 'https://evil.example' }),
    status: 403,
    error: 'Requests from other sites are not accepted here.',
  },
  {
    what: 'Sec-Fetch-Site cross-site',
    request: api(valid, { ...json, 'Sec-Fetch-Site': 'cross-site' }),
    status: 403,
    error: 'Requests from other sites are not accepted here.',
  },
  {
    what: 'an opaque null Origin',
    request: api(valid, { ...json, Origin: 'null' }),
    status: 403,
    error: 'Requests from other sites are not accepted here.',
  },
  {
    what: 'a non-numeric after',
    request: { method: 'GET', path: '/api/submissions?after=abc' },
    status: 400,
    error: 'The "after" parameter must be a submission id.',
  },
  {
    what: 'a negative after',
    request: { method: 'GET', path: '/api/submissions?after=-1' },
    status: 400,
    error: 'The "after" parameter must be a submission id.',
  },
  {
    what: 'an unknown API path',
    request: { method: 'POST', path: '/api/farm-animals/1', headers: json, body: '{}' },
    status: 404,
    error: 'There is no API at /api/farm-animals/1.',
  },
  // The home page's form action, as a browser without JavaScript posts it.
  {
    what: 'a form over 16 KB, chunked',
    request: { path: '/?index', headers: page, body: ['name=Nell&message=', overLimit] },
    status: 413,
    error: 'The request body is larger than 16 KB.',
  },
  {
    what: 'a form from a foreign Origin',
    request: {
      path: '/?index',
      headers: { ...page, Origin: 'https://evil.example' },
      body: 'name=Nell&email=nell%40example.com&message=hi',
    },
    status: 403,
    error: 'Requests from other sites are not accepted here.',
  },
]

describe('the catalogue of bad input', () => {
  it('has at least 40 entries', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(40)
  })

  it.each(catalogue.map((entry) => [entry.what, entry] as const))(
    'refuses %s with a clear error, storing and broadcasting nothing',
    async (_what, { request, status, error, errors }) => {
      const before = storedRows(shared.server.databasePath).length
      const answer = await rawRequest(shared.server.url, request)
      expect(answer.status).toBe(status)
      expect(answer.text).not.toMatch(/at .+\.(ts|js):\d+|<html/i)
      const text = request.headers?.Accept === 'text/html' ? answer.text : JSON.parse(answer.text).error
      if (request.headers?.Accept !== 'text/html') {
        expect(answer.headers['content-type']).toMatch(/^application\/json/)
      }
      if (typeof error === 'string') expect(text).toBe(error)
      else expect(text).toMatch(error)
      if (errors) expect(JSON.parse(answer.text).errors).toEqual(errors)
      if (status === 405) expect(answer.headers.allow).toBe('GET, POST')
      expect(storedRows(shared.server.databasePath)).toHaveLength(before)

      // The server still answers, and the next broadcast is the next good submission.
      const next = await rawRequest(shared.server.url, api(valid))
      expect(next.status).toBe(201)
      expect((await shared.live.next()).data).toEqual(JSON.parse(next.text).data)
    },
  )

  it('answers a form posted without JavaScript with status 400, the messages and the values kept', async () => {
    const answer = await rawRequest(shared.server.url, {
      path: '/?index',
      headers: page,
      body: 'name=Nell&email=nell.example.com&message=',
    })
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('Invalid email format')
    expect(answer.text).toContain('Message is required')
    expect(answer.text).toContain('value="nell.example.com"')
  })
})
