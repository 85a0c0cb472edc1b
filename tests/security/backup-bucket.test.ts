import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bucketKey, startBucketServer, type BucketServer } from '#tests/support/bucket-server'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { projectRoot, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

const site = serverPerTest('SIGKILL')
let bucket: BucketServer
beforeAll(async () => {
  bucket = await startBucketServer()
})
afterAll(() => bucket.close())

// s3rver's secret is the same word as its key ID, which the page shows by design: the stored
// secret is looked for as a value, and a secret typed into a test (unknown to the bucket) anywhere.
const secret = bucketKey.secret
const fields = () => bucket.env()
const store = () => bucket.open()

const postPage = (server: RunningServer, cookie: string, form: Record<string, string>) =>
  postSettingsPage(server, cookie, { section: 'backups', ...form })

const patch = (server: RunningServer, cookie: string, body: unknown) =>
  fetch(`${server.url}/api/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: server.url },
    body: JSON.stringify(body),
  })

describe('the bucket’s secret and the sealing key', () => {
  it('are never in a page, the API, /healthz or the log, after the one answer that shows the key', async () => {
    const server = await site({ env: { OWNER_PASSWORD: ownerPassword, NOTIFY_RETRY_SECONDS: '1' } })
    const cookie = await signInAsOwner(server.url, ownerPassword)
    const saved = await postPage(server, cookie, { intent: 'save', ...fields() })
    const key = /data-testid="bucket-key"[^>]*>([A-Za-z0-9_-]{43})</.exec(saved.html)?.[1]
    expect(key).toBeDefined()
    // A refused test and a refused save say their words, not the secret typed.
    const typed = 'typed-secret-Zq81x'
    const refused = await postPage(server, cookie, { intent: 'test-bucket', ...fields(), BACKUP_BUCKET_SECRET: typed })
    expect(refused.html).toContain('The bucket refused the key')
    await expect
      .poll(async () => (await (await fetch(`${server.url}/healthz`)).json()) as { offsite: string })
      .toMatchObject({
        offsite: 'ok',
      })
    const seen = [
      refused.html,
      await (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })).text(),
      await (await fetch(`${server.url}/healthz`)).text(),
      await (await fetch(`${server.url}/farm-sales`, { headers: { Cookie: cookie } })).text(),
      server.output(),
    ]
    for (const text of seen) {
      expect(text).not.toContain(key)
      expect(text).not.toContain(typed)
      expect(text).not.toContain(`BACKUP_BUCKET_SECRET":"${secret}`)
    }
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>
    // The state only: no address, no name, no words.
    expect(health.offsite).toBe('ok')
    expect(JSON.stringify(health)).not.toContain('127.0.0.1')
    expect(JSON.stringify(health)).not.toContain('farm-backups')
    const api = (await (await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })).json()) as {
      data: Array<{ key: string; value: string | null; set: boolean }>
    }
    expect(api.data.find((state) => state.key === 'BACKUP_BUCKET_SECRET')).toMatchObject({ value: null, set: true })
    // The objects' names say when, never who.
    for (const object of await store().list(''))
      expect(object.name).toMatch(/^farm-backups\/farm-\d{8}-\d{6}\.db\.sealed$/)
  })

  it('refuses an endpoint with a user and password in it, or of another scheme, with words that do not repeat it', async () => {
    const server = await site({ env: { OWNER_PASSWORD: ownerPassword } })
    const cookie = await signInAsOwner(server.url, ownerPassword)
    for (const [endpoint, said] of [
      ['https://AKIAWHO:hunter2-secret@s3.example.com', 'must not hold a user name or password'],
      ['file:///etc/passwd', 'must be an https:// address'],
      ['gopher://127.0.0.1:70', 'must be an https:// address'],
      ['http://s3.example.com', 'must be an https:// address'],
      ['https://s3.example.com/other-bucket/../x', 'with no path'],
    ] as const) {
      const answer = await patch(server, cookie, { ...fields(), BACKUP_BUCKET_ENDPOINT: endpoint })
      expect(answer.status).toBe(400)
      const text = await answer.text()
      expect(JSON.parse(text).fields.BACKUP_BUCKET_ENDPOINT.toLowerCase()).toContain(said)
      expect(text).not.toContain('hunter2-secret')
      const page = await postPage(server, cookie, { intent: 'save', ...fields(), BACKUP_BUCKET_ENDPOINT: endpoint })
      expect(page.status).toBe(400)
      expect(page.html).not.toContain('hunter2-secret')
    }
    expect(((await (await fetch(`${server.url}/healthz`)).json()) as { offsite: string }).offsite).toBe('off')
  })
})

describe('a copy changed in the bucket', () => {
  it('fails GCM’s check at restore: plain words, no database written', async () => {
    const key = Buffer.alloc(32, 9)
    const env = { ...fields(), BACKUP_BUCKET_KEY: key.toString('base64url') }
    const server = await site({ env: { ...env, NOTIFY_RETRY_SECONDS: '1' } })
    await expect.poll(async () => (await store().list('farm-backups/')).length, { timeout: 10_000 }).toBeGreaterThan(0)
    await server.stop('SIGTERM')
    // Every copy in the bucket has one byte of its body turned.
    for (const { name } of await store().list('farm-backups/')) {
      const parts: Buffer[] = []
      for await (const part of await store().get(name)) parts.push(Buffer.from(part))
      const copy = Buffer.concat(parts)
      copy[copy.length - 100]! ^= 0x01
      await store().put(name, copy, copy.length)
    }
    const fresh = join(mkdtempSync(join(tmpdir(), 'farm-fresh-')), 'farm.db')
    const answer = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'restore', '--', '--from-bucket', '--yes'], {
        cwd: projectRoot,
        env: { NODE_ENV: 'production', PATH: process.env.PATH!, HOME: process.env.HOME!, DATABASE_PATH: fresh, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      child.once('close', (code) => resolve({ code, stderr }))
    })
    expect(answer).toEqual({
      code: 1,
      stderr:
        'restore: The copy was changed after it was sealed (or cut short): it cannot be trusted. Try another copy.\n',
    })
    expect(existsSync(fresh)).toBe(false)
  })
})
