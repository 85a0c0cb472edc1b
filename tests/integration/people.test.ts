import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { readRows } from '#tests/support/database'
import { connectLive } from '#tests/support/live-client'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { forgettable, seedPersonEverywhere, tracesInFile } from '#tests/support/person'
import { projectRoot, tempDatabasePath } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const run = promisify(execFile)
const serve = serverPerTest('SIGKILL')

async function site(databasePath = tempDatabasePath(), env: Record<string, string> = { OWNER_PASSWORD: password }) {
  const server = await serve({ databasePath, env })
  return { server, cookie: env.OWNER_PASSWORD ? await signInAsOwner(server.url, password) : '' }
}

/** A database holding the person in every table, and a neighbour who stays. */
function seeded() {
  const databasePath = tempDatabasePath()
  const database = openDatabase(databasePath, join(projectRoot, 'drizzle'))
  database.sqlite
    .prepare(
      "INSERT INTO submissions (name, email, message, created_at) VALUES ('Bob Stays', 'bob@example.com', 'Eggs please', ?)",
    )
    .run(Date.now())
  const { lead } = seedPersonEverywhere(database.sqlite)
  database.close()
  return { databasePath, lead }
}

const person = `email=${encodeURIComponent(forgettable.email)}`

describe('a person, by their address', () => {
  it('exports all of it as JSON, forgets all of it live in every tab, and no byte of them is left in the file or its WAL', async () => {
    const { databasePath, lead } = seeded()
    const { server, cookie } = await site(databasePath)
    const exported = await fetch(`${server.url}/api/people?email=OTTOLINE.Q%40zanzibarmail.test`, {
      headers: { Cookie: cookie },
    })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="person-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    expect(await exported.json()).toMatchObject({
      submissions: [
        {
          id: lead,
          name: forgettable.name,
          orders: [
            {
              status: 'confirmed',
              lines: [{ product: 'honey', quantity: 2, unit: 'jar' }],
              history: [{ type: 'order.confirmed' }],
            },
          ],
          mailsToThem: [{ kind: 'acknowledgement' }, { kind: 'reply' }],
          answersFromThem: [
            {
              kind: 'answer',
              text: `Thank you, ${forgettable.name} here again.`,
              attachments: [{ name: `${forgettable.name}.pdf`, bytes: 10 }],
            },
          ],
        },
      ],
      mailsThatCameBack: [{ kind: 'bounce', status: '5.2.2', asItCame: expect.stringContaining(forgettable.email) }],
      subscription: { status: 'subscribed' },
      waitingFor: [{ product: 'marmalade', email: forgettable.email }],
      toldReady: [{ product: 'honey', season: 2026 }],
    })

    const tab = await connectLive(server.wsUrl, { Cookie: cookie })
    const otherTab = await connectLive(server.wsUrl, { Cookie: cookie })
    const forgot = await fetch(`${server.url}/api/people?${person}`, { method: 'DELETE', headers: { Cookie: cookie } })
    expect(forgot.status).toBe(200)
    expect(await forgot.json()).toEqual({ forgotten: { submissions: 1, subscription: true, removed: [lead] } })
    for (const watcher of [tab, otherTab]) {
      expect(await watcher.next()).toMatchObject({ type: 'SUBMISSIONS_REMOVED', ids: [lead] })
      watcher.close()
    }
    expect(tracesInFile(databasePath, forgettable.traces)).toEqual([])
    expect(tracesInFile(databasePath, ['Bob Stays'])).toEqual(['Bob Stays'])
    // Their order went with them: its lines and history too.
    expect(
      readRows(
        databasePath,
        'SELECT (SELECT count(*) FROM orders) + (SELECT count(*) FROM order_lines) + (SELECT count(*) FROM order_events) AS n',
      ),
    ).toEqual([{ n: 0 }])

    // Asked again: nothing held, nothing changed.
    const again = await fetch(`${server.url}/api/people?${person}`, { method: 'DELETE', headers: { Cookie: cookie } })
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({ error: `The site holds nothing about ${forgettable.email}.` })
  })

  it('a backup from before the forgetting, restored and started, forgets them again', async () => {
    const { databasePath } = seeded()
    const { server, cookie } = await site(databasePath)
    await run('npm', ['run', '--silent', 'backup'], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_PATH: databasePath },
    })
    const backups = join(dirname(databasePath), 'backups')
    const [older] = readdirSync(backups)
      .filter((name) => name.startsWith('farm-'))
      .sort()
      .reverse()
    expect(tracesInFile(join(backups, older!), ['Ottoline'])).toEqual(['Ottoline'])
    expect(
      (await fetch(`${server.url}/api/people?${person}`, { method: 'DELETE', headers: { Cookie: cookie } })).status,
    ).toBe(200)
    await server.stop()

    await run('npm', ['run', '--silent', 'restore', '--', join(backups, older!)], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_PATH: databasePath },
    })
    expect(tracesInFile(databasePath, ['Ottoline'])).toEqual(['Ottoline'])
    const { server: restored, cookie: again } = await site(databasePath)
    expect(restored.output()).toMatch(/"people":1,"msg":"forgot again people erased after this database was backed up"/)
    expect(tracesInFile(databasePath, forgettable.traces)).toEqual([])
    expect(readRows(databasePath, 'SELECT count(*) AS n FROM orders')).toEqual([{ n: 0 }])
    const listed = (await (
      await fetch(`${restored.url}/api/submissions`, { headers: { Cookie: again } })
    ).json()) as Array<{
      name: string
    }>
    expect(listed.map((row) => row.name)).toEqual(['Bob Stays'])
  })
})

describe('deleting', () => {
  it('DELETE /api/submissions/:id answers 204, every tab drops the card, and a second time is 404', async () => {
    const { databasePath, lead } = seeded()
    const { server, cookie } = await site(databasePath)
    const tab = await connectLive(server.wsUrl, { Cookie: cookie })
    const deleted = await fetch(`${server.url}/api/submissions/${lead}`, {
      method: 'DELETE',
      headers: { Cookie: cookie },
    })
    expect(deleted.status).toBe(204)
    const told = (await tab.next()) as unknown as {
      type: string
      ids: number[]
      counts: Array<{ kind: string; value: string; count: number }>
    }
    expect(told).toMatchObject({ type: 'SUBMISSIONS_REMOVED', ids: [lead] })
    // The counts it moved come with it: the product_inquiry tag is down to none.
    expect(told.counts).toContainEqual(expect.objectContaining({ kind: 'intent', value: 'product_inquiry', count: 0 }))
    tab.close()
    expect(
      (await fetch(`${server.url}/api/submissions/${lead}`, { method: 'DELETE', headers: { Cookie: cookie } })).status,
    ).toBe(404)
    // The newest id, deleted, is never given again: a repeated delete cannot reach a new lead.
    const next = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Cy New', email: 'cy@example.com', message: 'Eggs for Sunday?' }),
    })
    expect(((await next.json()) as { data: { id: number } }).data.id).toBe(lead + 1)
    expect(
      (await fetch(`${server.url}/api/submissions/${lead}`, { method: 'DELETE', headers: { Cookie: cookie } })).status,
    ).toBe(404)
    // The submission went with its mails; the person's subscription is theirs, not the submission's.
    const left = (await (
      await fetch(`${server.url}/api/people?${person}`, { headers: { Cookie: cookie } })
    ).json()) as {
      submissions: unknown[]
      subscription: unknown
    }
    expect(left.submissions).toEqual([])
    expect(left.subscription).not.toBeNull()
  })

  it('empties the spam folder: DELETE /api/spam answers how many', async () => {
    const { server, cookie } = await site()
    for (const name of ['Win Big', 'Cheap Pills']) {
      await fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name,
          email: 'bot@example.com',
          message: 'Click http://a.test http://b.test http://c.test now',
        }),
      })
    }
    const spam = (await (
      await fetch(`${server.url}/api/submissions?spam=true`, { headers: { Cookie: cookie } })
    ).json()) as unknown[]
    expect(spam).toHaveLength(2)
    const emptied = await fetch(`${server.url}/api/spam`, { method: 'DELETE', headers: { Cookie: cookie } })
    expect(await emptied.json()).toEqual({ deleted: 2 })
    expect(
      await (await fetch(`${server.url}/api/submissions?spam=true`, { headers: { Cookie: cookie } })).json(),
    ).toEqual([])
  })
})
