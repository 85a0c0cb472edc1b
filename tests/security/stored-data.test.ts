// The database file is private to the server's user, owner data is never cached, and HSTS
// covers subdomains only when the owner says so.
import { chmodSync, closeSync, openSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { rawRequest } from '#tests/support/raw-request'
import { serverPerTest } from '#tests/support/server-per-test'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'

const serve = serverPerTest()

const mode = (path: string) => statSync(path).mode & 0o777

async function post(server: RunningServer) {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Eggs?' }),
  })
  expect(answer.status).toBe(201)
}

describe('the SQLite files', () => {
  it('are created readable by the server’s user only: the database, its -wal and -shm', async () => {
    const server = await serve()
    await post(server)
    for (const file of ['', '-wal', '-shm']) expect(mode(`${server.databasePath}${file}`)).toBe(0o600)
  })

  it('narrows a database file left world-readable by an earlier version', async () => {
    const databasePath = tempDatabasePath()
    closeSync(openSync(databasePath, 'w'))
    chmodSync(databasePath, 0o644)
    const server = await serve({ databasePath })
    await post(server)
    for (const file of ['', '-wal', '-shm']) expect(mode(`${databasePath}${file}`)).toBe(0o600)
  })
})

describe('caching of owner data', () => {
  it.each([
    '/farm-sales',
    '/farm-sales?_data=routes%2Ffarm-sales',
    '/api/submissions',
    '/api/submissions?after=0',
    '/?_data=routes%2F_index',
    '/?_data=root',
  ])('%s is sent with Cache-Control: no-store', async (path) => {
    const server = await serve()
    await post(server)
    const answer = await rawRequest(server.url, { method: 'GET', path })
    expect(answer.status).toBe(200)
    expect(answer.headers['cache-control']).toBe('no-store')
  })

  it('keeps long caching for the fingerprinted bundles', async () => {
    const server = await serve()
    const html = await (await fetch(server.url)).text()
    const bundle = /"(\/build\/[^"]+\.js)"/.exec(html)![1]!
    expect((await fetch(`${server.url}${bundle}`)).headers.get('cache-control')).toMatch(/immutable/)
  })
})

describe('HSTS', () => {
  it('leaves subdomains out by default and covers them when HSTS_INCLUDE_SUBDOMAINS=true', async () => {
    const plain = await serve()
    expect((await fetch(plain.url)).headers.get('strict-transport-security')).toBe('max-age=31536000')
    const wide = await serve({ env: { HSTS_INCLUDE_SUBDOMAINS: 'true' } })
    expect((await fetch(wide.url)).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })
})
