import { createHash, scryptSync } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { activity, team } from '#app/data/schema'
import { migrationsFolder, migrationsUpTo } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { createOwnerAccess } from './owner-access.server'

const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})
function open(path = tempDatabasePath(), migrations = migrationsFolder) {
  const database = openDatabase(path, migrations)
  opened.push(database)
  return database
}

describe('who the guard lets in', () => {
  it('is a person: the owner, the team’s first, for the one password', async () => {
    const { db, writes } = open()
    const access = await createOwnerAccess({ db, writes, password: 'correct horse', sessionSecret: undefined })
    const opening = { secure: false, cookieHeader: null }
    const signedIn = await access.signIn({ email: '', password: 'correct horse' }, opening)
    const cookie = (signedIn.ok ? signedIn.cookie : '').split(';')[0]!
    expect((await access.passFor(cookie))?.who).toEqual({ id: 1, name: 'Owner', role: 'owner' })
    expect(await access.signIn({ email: '', password: 'wrong' }, opening)).toMatchObject({ ok: false, status: 401 })
    expect(await access.passFor('farm_owner=nothing')).toBeNull()
  })

  it('is anyone, no one in particular, while the inbox is open', async () => {
    const { db, writes } = open()
    const access = await createOwnerAccess({ db, writes, password: undefined, sessionSecret: undefined })
    expect((await access.passFor(null))?.who).toEqual({ id: null, name: 'Anyone (the inbox is open)', role: 'owner' })
  })

  it('keeps a session signed in before the team existed, as the owner’s, and their password', async () => {
    const path = tempDatabasePath()
    const before = open(path, migrationsUpTo('0015_one_delivery_engine'))
    // The single owner's password as the site kept it then: scrypt with Node's default cost.
    const salt = 'c2FsdHNhbHRzYWx0'
    before.sqlite
      .prepare('INSERT INTO owner_password (id, salt, hash) VALUES (1, ?, ?)')
      .run(salt, scryptSync('correct horse', salt, 32).toString('base64'))
    const id = 'A'.repeat(43)
    const at = Date.now()
    before.sqlite
      .prepare('INSERT INTO sessions (id_hash, created_at, expires_at) VALUES (?, ?, ?)')
      .run(createHash('sha256').update(id).digest('base64url'), at, at + 60_000)
    opened.pop()!.close()
    const { db, writes } = open(path)
    const access = await createOwnerAccess({ db, writes, password: 'correct horse', sessionSecret: undefined })
    const cookie = (await createCookie('farm_owner').serialize(id)).split(';')[0]!
    expect((await access.passFor(cookie))?.who).toEqual({ id: 1, name: 'Owner', role: 'owner' })
    // Without OWNER_PASSWORD now, the owner is still a person with a way in: the inbox stays closed.
    const later = await createOwnerAccess({ db, writes, password: undefined, sessionSecret: undefined })
    expect(later.required).toBe(true)
    expect(await later.passFor(cookie)).not.toBeNull()
    const signedIn = await later.signIn({ email: '', password: 'correct horse' }, { secure: false, cookieHeader: null })
    expect(signedIn.ok).toBe(true)
    // Signing in made the old cost's hash again with today's.
    expect(db.select().from(team).where(eq(team.id, 1)).get()?.passwordHash).toMatch(/^scrypt\$16384\$8\$5\$/)
  })

  it('lets a changed OWNER_PASSWORD back in, ending the first owner’s sessions; their own password stands otherwise', async () => {
    const { db, writes } = open()
    const opening = { secure: false, cookieHeader: null }
    const first = await createOwnerAccess({ db, writes, password: 'first password here', sessionSecret: undefined })
    const signedIn = await first.signIn({ email: '', password: 'first password here' }, opening)
    const cookie = (signedIn.ok ? signedIn.cookie : '').split(';')[0]!
    expect(await first.setPassword(1, 'my own long password', null)).toBeNull()
    // The same OWNER_PASSWORD at the next start changes nothing: their own password stands.
    const again = await createOwnerAccess({ db, writes, password: 'first password here', sessionSecret: undefined })
    expect((await again.signIn({ email: '', password: 'my own long password' }, opening)).ok).toBe(true)
    expect((await again.signIn({ email: '', password: 'first password here' }, opening)).ok).toBe(false)
    // A new one is a way back in, and ends the sessions there were.
    const mySession = await again.signIn({ email: '', password: 'my own long password' }, opening)
    const myCookie = (mySession.ok ? mySession.cookie : '').split(';')[0]!
    const reset = await createOwnerAccess({ db, writes, password: 'the deployer reset it', sessionSecret: undefined })
    expect(await reset.passFor(myCookie)).toBeNull()
    expect(await reset.passFor(cookie)).toBeNull()
    expect((await reset.signIn({ email: '', password: 'the deployer reset it' }, opening)).ok).toBe(true)
    // The way back in is on the record; the first application, on a new site, is not a reset.
    expect(db.select({ kind: activity.kind, detail: activity.detail }).from(activity).all()).toEqual([
      { kind: 'password-reset', detail: 'A new OWNER_PASSWORD reset Owner’s password' },
    ])
  })

  it('renews the session at sign-in: the id the browser came with is ended', async () => {
    const { db, writes } = open()
    const access = await createOwnerAccess({ db, writes, password: 'correct horse', sessionSecret: undefined })
    const ended: Array<string | null> = []
    access.onSignOut((session) => ended.push(session))
    const first = await access.signIn({ email: '', password: 'correct horse' }, { secure: false, cookieHeader: null })
    const firstCookie = (first.ok ? first.cookie : '').split(';')[0]!
    const second = await access.signIn(
      { email: '', password: 'correct horse' },
      { secure: false, cookieHeader: firstCookie },
    )
    const secondCookie = (second.ok ? second.cookie : '').split(';')[0]!
    expect(secondCookie).not.toBe(firstCookie)
    expect(await access.passFor(firstCookie)).toBeNull()
    expect(await access.passFor(secondCookie)).not.toBeNull()
    expect(ended).toHaveLength(1)
  })

  it('limits wrong passwords per account: 10 from one address bar it there; 50 from all bar it everywhere, for the window', async () => {
    const { db, writes } = open()
    let at = Date.now()
    const access = await createOwnerAccess({
      db,
      writes,
      password: 'correct horse',
      sessionSecret: undefined,
      now: () => at,
    })
    const from = (address: string) => ({ secure: false, cookieHeader: null, address })
    for (let wrong = 0; wrong < 10; wrong += 1) {
      expect(await access.signIn({ email: '', password: `wrong ${wrong}` }, from('203.0.113.7'))).toMatchObject({
        status: 401,
      })
    }
    expect(await access.signIn({ email: '', password: 'correct horse' }, from('203.0.113.7'))).toMatchObject({
      ok: false,
      status: 429,
      error: 'Too many wrong passwords for this account. Wait a while, or sign in with a passkey.',
    })
    expect((await access.signIn({ email: '', password: 'correct horse' }, from('198.51.100.1'))).ok).toBe(true)
    for (let n = 0; n < 40; n += 1) {
      expect(await access.signIn({ email: '', password: `botnet ${n}` }, from(`192.0.2.${n}`))).toMatchObject({
        status: 401,
      })
    }
    expect((await access.signIn({ email: '', password: 'correct horse' }, from('192.0.2.3'))).ok).toBe(false)
    expect((await access.signIn({ email: '', password: 'correct horse' }, from('198.51.100.2'))).ok).toBe(false)
    at += 15 * 60_000
    expect((await access.signIn({ email: '', password: 'correct horse' }, from('203.0.113.7'))).ok).toBe(true)
  })

  it('lets OWNER_PASSWORD in only for whom it was applied to: removed, it lets no one in, never the next owner', async () => {
    const { db, writes, sqlite } = open()
    await createOwnerAccess({ db, writes, password: 'first password here', sessionSecret: undefined })
    sqlite
      .prepare(
        "INSERT INTO team (id, name, role, created_at, email, password_hash, joined_at) VALUES (2, 'Bea', 'owner', 1, 'bea@farm.example', 'scrypt$kept', 1)",
      )
      .run()
    sqlite.prepare('UPDATE team SET removed_at = 2 WHERE id = 1').run()
    const later = await createOwnerAccess({ db, writes, password: 'a new owner password', sessionSecret: undefined })
    expect(sqlite.prepare('SELECT password_hash FROM team WHERE id = 2').pluck().get()).toBe('scrypt$kept')
    expect(
      (
        await later.signIn(
          { email: 'bea@farm.example', password: 'a new owner password' },
          { secure: false, cookieHeader: null },
        )
      ).ok,
    ).toBe(false)
    expect(
      (await later.signIn({ email: '', password: 'a new owner password' }, { secure: false, cookieHeader: null })).ok,
    ).toBe(false)
  })
})
