import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBucketServer, type BucketServer } from '#tests/support/bucket-server'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, projectRoot, type RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

const site = serverPerTest('SIGKILL')
const run = promisify(execFile)
let bucket: BucketServer
beforeAll(async () => {
  bucket = await startBucketServer()
})
afterAll(() => bucket.close())

const visitor = { name: 'Philippa Quillfeather', email: 'philippa.quill@example.com', message: 'Two dozen duck eggs?' }
const store = () => bucket.open()
const inBucket = async () => (await store().list('farm-backups/')).map((object) => object.name).sort()
const localBackups = (databasePath: string) =>
  readdirSync(join(dirname(databasePath), 'backups'))
    .filter((name) => /^farm-\d{8}-\d{6}\.db$/.test(name))
    .sort()

async function postLead(server: RunningServer) {
  const answer = await fetch(`${server.url}/api/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(visitor),
  })
  expect(answer.status).toBe(201)
}

/** The settings page's backups form, posted as a browser without JavaScript posts it. */
const postBackups = (server: RunningServer, cookie: string, fields: Record<string, string>) =>
  postSettingsPage(server, cookie, { section: 'backups', ...fields })

const healthOf = async (server: RunningServer) =>
  ((await (await fetch(`${server.url}/healthz`)).json()) as { offsite: string }).offsite
const pageOf = async (server: RunningServer, cookie: string) =>
  (await fetch(`${server.url}/farm-sales/settings`, { headers: { Cookie: cookie } })).text()
const shownKey = (html: string) => /data-testid="bucket-key"[^>]*>([A-Za-z0-9_-]{43})</.exec(html)?.[1]

/** `npm run restore` as the README writes it, the key typed on its standard input. */
function restoreFromBucket(databasePath: string, typedKey: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'restore', '--', '--from-bucket', '--yes'], {
      cwd: projectRoot,
      env: {
        NODE_ENV: 'production',
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        DATABASE_PATH: databasePath,
        ...env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdin.end(`${typedKey}\n`)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('backups that leave the machine', () => {
  let key = ''
  let firstSite = ''

  it('the owner sets the bucket on the settings page: the key is shown once, each backup is copied there sealed, with the same keep-count', async () => {
    const env = { OWNER_PASSWORD: ownerPassword, BACKUP_KEEP: '2', NOTIFY_RETRY_SECONDS: '1' }
    const server = await site({ env })
    firstSite = server.databasePath
    await postLead(server)
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('backed up the database')
    expect(await healthOf(server)).toBe('off')
    const cookie = await signInAsOwner(server.url, ownerPassword)

    const saved = await postBackups(server, cookie, { intent: 'save', ...bucket.env() })
    expect(saved.status).toBe(200)
    key = shownKey(saved.html)!
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(saved.html).toContain('Keep it somewhere safe')
    // Never again: not on the page, not on a second save.
    expect(await pageOf(server, cookie)).not.toContain(key)
    const again = await postBackups(server, cookie, {
      intent: 'save',
      ...bucket.env(),
      BACKUP_BUCKET_REGION: 'us-east-1',
    })
    expect(again.status).toBe(303)
    expect(again.html).not.toContain(key)

    await expect
      .poll(inBucket, { timeout: 10_000 })
      .toEqual(localBackups(server.databasePath).map((name) => `farm-backups/${name}.sealed`))
    expect(await healthOf(server)).toBe('ok')
    // The copy is in the bucket a moment before the site has its answer and notes it.
    await expect
      .poll(() => pageOf(server, cookie), { timeout: 10_000 })
      .toMatch(
        /The bucket holds the backups up to farm-\d{8}-\d{6}\.db \(named in UTC\), sealed; checked at \d+ \w+ \d{4}, \d\d:\d\d UTC\./,
      )
    // The copy woken by the save, before its key was made, waited for the key: it failed nothing.
    expect(server.output()).not.toContain('the copy to the bucket failed')

    // Two more backups, then a restart: the bucket is given what it lacks and keeps the newest two.
    await server.stop('SIGTERM')
    for (let n = 0; n < 2; n++) {
      await new Promise((resolve) => setTimeout(resolve, 1100))
      await run('npm', ['run', '--silent', 'backup'], {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_PATH: server.databasePath, BACKUP_KEEP: '2' },
      })
    }
    const local = localBackups(server.databasePath)
    expect(local).toHaveLength(2)
    const restarted = await site({ databasePath: server.databasePath, env })
    await expect.poll(inBucket, { timeout: 10_000 }).toEqual(local.map((name) => `farm-backups/${name}.sealed`))
    expect(restarted.output()).toContain('removed older copies from the bucket')

    // The provider never reads a visitor's data: the local backup holds their name, the sealed copies do not.
    const plain = readFileSync(join(dirname(server.databasePath), 'backups', local[1]!))
    expect(plain.includes(Buffer.from(visitor.email))).toBe(true)
    for (const name of await inBucket()) {
      const parts: Buffer[] = []
      for await (const part of await store().get(name)) parts.push(Buffer.from(part))
      const sealed = Buffer.concat(parts)
      expect(sealed.subarray(0, 8).toString('latin1')).toBe('FARMSEAL')
      for (const said of [visitor.name, visitor.email, 'Quillfeather', 'SQLite format 3']) {
        expect(sealed.includes(Buffer.from(said))).toBe(false)
      }
    }
  })

  it('restores from the bucket on a fresh machine (no database, no settings) with npm run restore as the README writes it; a wrong key changes nothing', async () => {
    expect(key).not.toBe('')
    const fresh = join(mkdtempSync(join(tmpdir(), 'farm-fresh-')), 'data', 'farm.db')
    const env = bucket.env()

    const wrong = await restoreFromBucket(fresh, Buffer.alloc(32, 7).toString('base64url'), env)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toBe(
      'restore: This key does not open the bucket’s copies: it is not the one the settings page showed when the bucket was set up.\n',
    )
    expect(existsSync(fresh)).toBe(false)
    expect(readdirSync(join(dirname(fresh), 'backups'))).toEqual([])

    const right = await restoreFromBucket(fresh, key, env)
    expect(right.stderr).toBe('')
    expect(right.code).toBe(0)
    expect(right.stdout).toMatch(/^The bucket holds 2 backups, the newest farm-\d{8}-\d{6}\.db\. Fetched and opened/)
    expect(right.stdout).toMatch(/Restored .* to .*farm\.db: 1 submissions\.\n$/)

    const restored = await site({ databasePath: fresh, port: await freePort(), env: { OWNER_PASSWORD: ownerPassword } })
    const cookie = await signInAsOwner(restored.url, ownerPassword)
    const listed = (await (await fetch(`${restored.url}/api/submissions`, { headers: { Cookie: cookie } })).json()) as {
      data: Array<{ name: string }>
    }
    expect(JSON.stringify(listed)).toContain(visitor.name)
    // The restored site goes on sealing with the same key, into the same bucket (its settings came back too).
    await expect.poll(() => healthOf(restored), { timeout: 10_000 }).toBe('ok')
    expect(firstSite).not.toBe(fresh)
  })

  it('a full bucket: the copy fails, is shown and tried again, and the site goes on; once there is room it is copied', async () => {
    bucket.setFull(true)
    try {
      const server = await site({
        env: {
          OWNER_PASSWORD: ownerPassword,
          NOTIFY_RETRY_SECONDS: '1',
          BACKUP_BUCKET_KEY: Buffer.alloc(32, 1).toString('base64url'),
          ...bucket.env(),
        },
      })
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('the copy to the bucket failed')
      expect(server.output()).toMatch(/"problem":"The bucket is full","tries":1,"retryInSeconds":1/)
      await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/"problem":"The bucket is full","tries":2/)
      expect(await healthOf(server)).toBe('failing')
      const cookie = await signInAsOwner(server.url, ownerPassword)
      expect(await pageOf(server, cookie)).toMatch(
        /The last copy to the bucket failed at \d+ \w+ \d{4}, \d\d:\d\d UTC: The bucket is full; it will be tried again at \d+ \w+ \d{4}, \d\d:\d\d\./,
      )
      // The site is not held up: leads are taken as ever.
      await postLead(server)
      bucket.setFull(false)
      await expect.poll(() => healthOf(server), { timeout: 15_000 }).toBe('ok')
      expect(server.output()).toContain('the bucket took the copies again')
    } finally {
      bucket.setFull(false)
    }
  })

  it('‘Test the bucket’ answers in plain words, with JavaScript off and on: a wrong key, nothing at the address, and a bucket that works', async () => {
    const server = await site({ env: { OWNER_PASSWORD: ownerPassword } })
    const cookie = await signInAsOwner(server.url, ownerPassword)
    const test = (fields: Record<string, string>) =>
      postBackups(server, cookie, { intent: 'test-bucket', ...bucket.env(), ...fields })
    const wrongKey = await test({ BACKUP_BUCKET_ACCESS_KEY: 'SOMEONE-ELSE' })
    expect(wrongKey.status).toBe(400)
    expect(wrongKey.html).toContain('The bucket refused the key: check the key and secret')
    const wrongSecret = await test({ BACKUP_BUCKET_SECRET: 'not the secret' })
    expect(wrongSecret.html).toContain('The bucket refused the key: check the key and secret')
    const silent = await freePort()
    const nobody = await test({ BACKUP_BUCKET_ENDPOINT: `http://127.0.0.1:${silent}` })
    expect(nobody.html).toContain(`Nothing answered at 127.0.0.1:${silent}`)
    const works = await test({})
    expect(works.status).toBe(200)
    expect(works.html).toContain('A test file was written to the bucket, read back and removed.')
    // With JavaScript on, Remix posts for JSON: the same words.
    const scripted = await fetch(`${server.url}/farm-sales/settings?_data=routes%2Ffarm-sales_.settings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: new URLSearchParams({
        section: 'backups',
        intent: 'test-bucket',
        ...bucket.env(),
        BACKUP_BUCKET_SECRET: 'nope',
      }).toString(),
    })
    expect(((await scripted.json()) as { problems: Record<string, string> }).problems).toEqual({
      BACKUP_BUCKET_SECRET: 'The bucket refused the key: check the key and secret',
    })
    // Nothing was saved by a test.
    expect(await healthOf(server)).toBe('off')
  })
})
