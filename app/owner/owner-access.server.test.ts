import { createHash } from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
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
    const cookie = (await access.signIn('correct horse', { secure: false }))!.split(';')[0]!
    expect((await access.passFor(cookie))?.who).toEqual({ id: 1, name: 'Owner', role: 'owner' })
    expect(await access.signIn('wrong', { secure: false })).toBeNull()
    expect(await access.passFor('farm_owner=nothing')).toBeNull()
  })

  it('is anyone, no one in particular, while the inbox is open', async () => {
    const { db, writes } = open()
    const access = await createOwnerAccess({ db, writes, password: undefined, sessionSecret: undefined })
    expect((await access.passFor(null))?.who).toEqual({ id: null, name: 'Anyone (the inbox is open)', role: 'owner' })
  })

  it('keeps a session signed in before the team existed, as the owner’s', async () => {
    const path = tempDatabasePath()
    const before = open(path, migrationsUpTo('0015_one_delivery_engine'))
    // The same password as then: a changed one would end every session.
    await createOwnerAccess({
      db: before.db,
      writes: before.writes,
      password: 'correct horse',
      sessionSecret: undefined,
    })
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
  })
})
