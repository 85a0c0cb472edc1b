import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { permissions, type Permission, type PermissionName } from '#app/owner/permissions'
import { projectRoot } from '#tests/support/server'

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
    expect([...http.matchAll(/app\.use\('([^']+)'/g)].map((match) => match[1])).toEqual(['/build', '/build'])
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
