import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { defaults } from '#server/config'
import { storedRows } from '#tests/support/database'
import { seoSpam } from '#tests/support/seed'
import { connectLive } from '#tests/support/live-client'
import { tempDatabasePath } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const dayMs = 24 * 60 * 60 * 1000

describe('the spam folder', () => {
  const serve = serverPerTest()

  it('keeps a message the analysis reads as spam aside, unbroadcast, with the analysis’s reasons', async () => {
    const server = await serve()
    const live = await connectLive(server.wsUrl)
    const answer = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(seoSpam),
    })
    expect(answer.status).toBe(202)
    const [kept] = await (await fetch(`${server.url}/api/submissions?spam=true`)).json()
    expect(kept).toMatchObject({ name: 'SEO Expert', analysis: { spam: { isSpam: true } } })
    expect(kept.spam).toEqual(expect.arrayContaining(kept.analysis.spam.reasons))
    // The control: a lead posted after it is told; the spam, had it been told, would have come first.
    const lead = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Nell Crane', email: 'nell@example.com', message: 'Are the strawberries ready?' }),
    })
    expect(lead.status).toBe(201)
    expect(await live.next()).toMatchObject({ type: 'NEW_SUBMISSION', data: { name: 'Nell Crane' } })
    live.close()
  })

  it(`purges spam older than SPAM_RETENTION_DAYS (default ${defaults.SPAM_RETENTION_DAYS}) at start, logs how many, and keeps the rest`, async () => {
    const databasePath = tempDatabasePath()
    await (await serve({ databasePath })).stop()
    const sqlite = new Sqlite(databasePath)
    const insert = sqlite.prepare(
      'INSERT INTO submissions (name, email, message, created_at, spam_reasons) VALUES (?, ?, ?, ?, ?)',
    )
    const days = Number(defaults.SPAM_RETENTION_DAYS)
    insert.run('Old spam', 'a@example.com', 'x', Date.now() - (days + 1) * dayMs, '["honeypot"]')
    insert.run('Older spam', 'b@example.com', 'x', Date.now() - (days + 40) * dayMs, '["links"]')
    insert.run('Recent spam', 'c@example.com', 'x', Date.now() - (days - 1) * dayMs, '["honeypot"]')
    insert.run('Old customer', 'd@example.com', 'x', Date.now() - (days + 400) * dayMs, null)
    sqlite.close()

    const server = await serve({ databasePath })
    const line = () =>
      server
        .output()
        .split('\n')
        .find((entry) => entry.includes('purged old spam'))
    await expect.poll(line).toBeDefined()
    expect(JSON.parse(line()!)).toMatchObject({ purged: 2, olderThanDays: days })
    expect(storedRows(databasePath).map((row) => row.name)).toEqual(['Recent spam', 'Old customer'])
  })
})
