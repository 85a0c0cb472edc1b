import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { permissions, type Permission, type PermissionName } from '#app/owner/permissions'
import { ownerPassword } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import { projectRoot } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { addPerson, signInAs } from '#tests/support/team'

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8')

/** A table of the README's, found by the words of its first header cell: each row's cells, unquoted. */
function readmeTable(firstHeader: string): string[][] {
  const lines = read('README.md').split('\n')
  const start = lines.findIndex((line) => new RegExp(`^\\|\\s*${firstHeader}\\s*\\|`).test(line))
  expect(start, `README has a table headed '${firstHeader}'`).toBeGreaterThan(-1)
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replace(/`/g, '')),
    )
  }
  return rows
}

const doors = new Map(readmeTable('Door').map(([door, named]) => [door!, named!]))
const permissionsOf = (named: string) => (named === 'public' ? [] : named.split(', ').sort())

/** Every permission a module's source asks of the one guard (or of mayPass, outside Remix). */
const guardedBy = (source: string) =>
  [
    ...[...source.matchAll(/requirePermission\(\s*\w+,\s*\w+,\s*'([^']+)'/g)].map((match) => match[1]!),
    ...[...source.matchAll(/mayPass\([^,]+,\s*'([^']+)'\)/g)].map((match) => match[1]!),
  ]
    .filter((name, index, all) => all.indexOf(name) === index)
    .sort()

/** A route's source, with the module it re-exports its loader and action from (the inbox's page). */
const serverHalf = (source: string) => {
  const from = /export \{[^}]*\bloader\b[^}]*\} from '#app\/([^']+)'/.exec(source)?.[1]
  return from ? source + read(`app/${from}.ts`) : source
}

describe('every door is public or guarded, as the README’s tables say', () => {
  it('names each route module of app/routes, with the permissions its source asks for', () => {
    const routes = readdirSync(join(projectRoot, 'app/routes')).filter((name) => !/\.test\.tsx?$/.test(name))
    expect(routes.length).toBeGreaterThan(30)
    for (const route of routes) {
      const path = `app/routes/${route}`
      const named = doors.get(path)
      expect(named, `${path} is in the README's doors table`).toBeDefined()
      expect(guardedBy(serverHalf(read(path))), path).toEqual(permissionsOf(named!))
    }
    const listed = [...doors.keys()].filter((door) => door.startsWith('app/routes/'))
    expect(listed.sort()).toEqual(routes.map((route) => `app/routes/${route}`).sort())
  })

  it('names each path the Express server answers before Remix, and the live link’s permission', () => {
    const http = read('server/http.ts')
    const paths = [...http.matchAll(/app\.(get|post|put|patch|delete)\('([^']+)'/g)].map(
      ([, method, path]) => `${method!.toUpperCase()} ${path}`,
    )
    expect(paths.length).toBeGreaterThan(2)
    for (const path of paths) expect(doors.get(path), `${path} is in the README's doors table`).toBe('public')
    expect([...http.matchAll(/app\.use\('([^']+)'/g)].map((match) => match[1])).toEqual(['/build'])
    expect(doors.get('/build, public/')).toBe('public')
    expect(guardedBy(read('server/live.ts'))).toEqual(permissionsOf(doors.get('the live link (WebSocket at /)')!))
  })

  it('says each permission’s roles, its rule while no one signs in and what it needs, as the table in code', () => {
    const needs = { phones: 'notifications', updates: 'updates' }
    const table = readmeTable('Permission').map(([name, who, whileOpen, needed]) => ({ name, who, whileOpen, needed }))
    expect(table).toEqual(
      (Object.entries(permissions) as [PermissionName, Permission][]).map(([name, rule]) => ({
        name,
        who: rule.roles.join(', '),
        whileOpen: rule.whileOpen ? 'refused' : 'open',
        needed: rule.needs ? needs[rule.needs] : '',
      })),
    )
  })

  it('finds a guard the README does not name (a control for the reading above)', () => {
    expect(guardedBy("await requirePermission(request, context, 'data:erase', { as: 'api' })")).toEqual(['data:erase'])
    expect(guardedBy("mayPass(pass.who.role, 'inbox:read') ? pass : 403")).toEqual(['inbox:read'])
  })
})

describe('the one guard answers in one order on every door', () => {
  const serve = serverPerTest()
  const errorOf = async (url: string, path: string, headers: Record<string, string> = {}) => {
    const answer = await rawRequest(url, { method: 'GET', path, headers })
    return { status: answer.status, error: (JSON.parse(answer.text) as { error: string }).error }
  }

  it('says a foreign name (421) before what is not set up, in the open inbox', async () => {
    const server = await serve()
    // The site's own name first: without OWNER_PASSWORD the settings and the phones say what to set.
    expect(await errorOf(server.url, '/api/settings')).toMatchObject({ status: 403, error: /claim the site first/ })
    expect(await errorOf(server.url, '/api/push-key')).toMatchObject({ status: 403, error: /claim the site first/ })
    for (const path of ['/api/settings', '/api/push-key', '/api/updates', '/api/backup', '/api/insights']) {
      const answer = await errorOf(server.url, path, { Host: 'rebound.example' })
      expect({ path, status: answer.status }).toEqual({ path, status: 421 })
    }
  })

  it('asks a stranger to sign in, tells a helper their role, and only then an owner what is off', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: ownerPassword } })
    const owner = await signInAs(server.url, '', ownerPassword)
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    // Updates and the phones are off here: a stranger learns nothing of that.
    for (const path of ['/api/updates', '/api/push-key', '/api/backup', '/api/settings']) {
      const answer = await errorOf(server.url, path)
      expect({ path, status: answer.status }).toEqual({ path, status: 401 })
      expect(answer.error).toMatch(/^Sign in as one of the farm’s team to /)
    }
    expect(await errorOf(server.url, '/api/updates', { Cookie: helper })).toEqual({
      status: 403,
      error: 'Only an owner may read the updates; you are signed in as a helper.',
    })
    expect(await errorOf(server.url, '/api/updates', { Cookie: owner })).toEqual({
      status: 403,
      error: 'To send updates and offers, turn them on in the settings (they need mail and the site’s public address).',
    })
    // A helper holds phone:notify: past their role, they are told what the phones need.
    expect(await errorOf(server.url, '/api/push-key', { Cookie: helper })).toMatchObject({
      status: 403,
      error: /^To be notified on this phone, set up mail or the phone’s contact/,
    })
  })
})
