// Part of `npm run lint`: no import circle between the files of app/ (type-only imports counted,
// which import-x/no-cycle skips), and the README's table of rooms says what scripts/rooms.js says.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { layers, rooms } from './rooms.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const problems = []

function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

function resolveImport(from, specifier) {
  const base = specifier.startsWith('#app/')
    ? join(root, 'app', specifier.slice(5))
    : specifier.startsWith('.')
      ? resolve(dirname(from), specifier)
      : null
  if (!base) return null
  return ['', '.ts', '.tsx', '.mjs']
    .map((end) => base + end)
    .find((path) => existsSync(path) && statSync(path).isFile())
}

const imports = new Map()
for (const file of filesUnder(join(root, 'app'))) {
  const text = readFileSync(file, 'utf8')
  const found = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ]
  imports.set(file, new Set(found.map((match) => resolveImport(file, match[1] ?? match[2])).filter(Boolean)))
}

// Tarjan's strongly connected components: any with more than one file is a circle.
let index = 0
const indexes = new Map()
const lows = new Map()
const stack = []
function connect(file) {
  indexes.set(file, index)
  lows.set(file, index++)
  stack.push(file)
  for (const next of imports.get(file) ?? []) {
    if (!indexes.has(next)) {
      connect(next)
      lows.set(file, Math.min(lows.get(file), lows.get(next)))
    } else if (stack.includes(next)) lows.set(file, Math.min(lows.get(file), indexes.get(next)))
  }
  if (lows.get(file) !== indexes.get(file)) return
  const circle = []
  let member
  do {
    member = stack.pop()
    circle.push(relative(root, member))
  } while (member !== file)
  if (circle.length > 1) problems.push(`Files import each other in a circle: ${circle.join(', ')}`)
}
for (const file of imports.keys()) if (!indexes.has(file)) connect(file)

try {
  layers()
} catch (error) {
  problems.push(error.message)
}

// The README's "Which room may import which" table: one row a room, its rooms in backticks.
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const table = readme.slice(readme.indexOf('Which room may import which'))
const written = Object.fromEntries(
  [...table.matchAll(/^\| `([\w-]+)` +\| ([^|]*)\|/gm)].map(([, room, allowed]) => [
    room,
    [...allowed.matchAll(/`([\w-]+)`/g)].map(([, name]) => name).sort(),
  ]),
)
for (const [room, allowed] of Object.entries(rooms)) {
  if (JSON.stringify(written[room]) !== JSON.stringify([...allowed].sort())) {
    problems.push(
      `The README's rooms table says ${room} may import ${written[room] ?? 'nothing listed'}; scripts/rooms.js says ${allowed}`,
    )
  }
}

for (const problem of problems) console.error(problem)
if (problems.length > 0) process.exit(1)
