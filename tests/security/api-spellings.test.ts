// Every way to the API gets the API's answer in its one error shape. Before: `//api/…` reached
// Remix's pages (an HTML 404, a 405 page), `?_data=root` made Remix answer the page's data
// (the farm's name, whether the owner is signed in) with its own headers, and a thrown answer
// (a guard's 401, a 405) carried Remix's X-Remix-Catch.
import { beforeAll, expect, it } from 'vitest'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

let server: RunningServer
const serve = serverPerFile()
beforeAll(async () => {
  server = await serve({ env: { OWNER_PASSWORD: 'a-long-owner-password' } })
})

const ask = async (method: string, path: string) => {
  const answer = await rawRequest(server.url, {
    method,
    path,
    headers: { 'Content-Type': 'application/json', 'Content-Length': method === 'GET' ? '0' : '2' },
    body: method === 'GET' ? undefined : '{}',
  })
  const remixHeaders = Object.keys(answer.headers).filter((name) => name.startsWith('x-remix'))
  let body: unknown = null
  try {
    body = JSON.parse(answer.text)
  } catch {
    body = answer.text.slice(0, 40)
  }
  return { status: answer.status, type: answer.headers['content-type'], remixHeaders, body }
}

it.each([
  ['GET', '//api/submissions', 401],
  ['GET', '///api//submissions', 401],
  ['GET', '/api/submissions?_data=root', 401],
  ['GET', '/api/submissions?_data=routes%2Fapi.submissions', 401],
  ['GET', '//%61pi/submissions?_data=root&limit=2', 401],
  ['POST', '//api/submissions', 400],
  ['POST', '/api/submissions?_data=root', 400],
  ['POST', '/api/submissions/1?_data=routes%2Fapi.submissions.%24id', 405],
  ['PATCH', '//api/submissions/1', 401],
  ['DELETE', '/api/submissions/1?_data=root', 401],
  ['GET', '//api/no-such-thing?_data=root', 404],
])('%s %s answers %i in the API’s one error shape, with none of Remix’s headers', async (method, path, status) => {
  const answer = await ask(method, path)
  expect(answer).toMatchObject({ status, remixHeaders: [] })
  expect(answer.type).toMatch(/^application\/json/)
  expect(answer.body).toEqual(expect.objectContaining({ error: expect.any(String) }))
  expect(JSON.stringify(answer.body)).not.toContain('ownerSignedIn')
})

it('keeps the pages’ own data requests as they were', async () => {
  const answer = await ask('GET', '/sign-in?_data=root')
  expect(answer.status).toBe(200)
  expect(answer.remixHeaders).toContain('x-remix-response')
})
