// Which room of app/ may import which: the one statement of the rule. eslint.config.js makes it
// import-x/no-restricted-paths zones; scripts/check-imports.js (run by `npm run lint`) checks that
// the rooms stand in layers, with no circle, and that the README's table says the same.
// A room is a folder of app/; `log` is app/log.ts and `outside` app/outside.ts. Tests may import any room.
export const rooms = {
  outside: [],
  log: ['outside'],
  writing: [],
  limits: [],
  components: ['language'],
  clock: [],
  language: ['clock'],
  analysis: ['clock', 'log', 'outside'],
  data: ['analysis', 'outside'],
  http: ['log'],
  leads: ['analysis', 'clock', 'data', 'outside'],
  delivery: ['data', 'log', 'outside'],
  live: ['leads', 'limits', 'log'],
  owner: ['data', 'http', 'limits', 'log'],
  'owner-mail': ['analysis', 'clock', 'data', 'delivery', 'leads', 'log'],
  webhook: ['data', 'delivery', 'leads', 'log'],
  push: ['data', 'delivery', 'http', 'leads', 'log', 'outside', 'owner'],
  updates: ['analysis', 'clock', 'data', 'delivery', 'http', 'language', 'leads', 'log', 'owner', 'writing'],
  replies: [
    'clock',
    'data',
    'delivery',
    'http',
    'language',
    'leads',
    'limits',
    'live',
    'log',
    'owner',
    'owner-mail',
    'updates',
    'writing',
  ],
  submissions: ['analysis', 'components', 'data', 'http', 'language', 'leads', 'limits', 'live', 'log', 'replies'],
  lifecycle: ['data', 'delivery', 'leads', 'live', 'log', 'outside', 'push'],
  inbox: ['analysis', 'clock', 'data', 'http', 'leads', 'lifecycle', 'live', 'orders', 'owner', 'replies', 'team'],
  settings: ['analysis', 'data', 'delivery', 'http', 'log', 'outside', 'owner', 'webhook'],
  'mail-back': ['clock', 'data', 'delivery', 'leads', 'live', 'log', 'outside', 'replies', 'submissions'],
  team: ['clock', 'data', 'delivery', 'http', 'leads', 'log', 'owner'],
  insights: ['analysis', 'clock', 'data', 'inbox', 'orders', 'updates'],
  'farm-page': ['clock', 'data', 'http', 'language', 'log', 'team'],
  'this-week': ['clock', 'data', 'delivery', 'http', 'language', 'leads', 'submissions', 'team', 'updates', 'writing'],
  orders: [
    'analysis',
    'clock',
    'data',
    'delivery',
    'http',
    'leads',
    'limits',
    'live',
    'log',
    'owner',
    'replies',
    'team',
    'this-week',
    'webhook',
    'writing',
  ],
}

/** Where a room's files are, from the project's root. */
export const roomPath = (room) => (room === 'log' || room === 'outside' ? `./app/${room}.ts` : `./app/${room}`)

/** The rooms in an order where each comes after every room it may import; throws on a circle. */
export function layers(map = rooms) {
  const placed = []
  const visiting = new Set()
  const visit = (room, path) => {
    if (placed.includes(room)) return
    if (visiting.has(room)) throw new Error(`The rooms import in a circle: ${[...path, room].join(' → ')}`)
    if (!(room in map)) throw new Error(`No room ${room}`)
    visiting.add(room)
    for (const below of map[room]) visit(below, [...path, room])
    visiting.delete(room)
    placed.push(room)
  }
  for (const room of Object.keys(map)) visit(room, [])
  return placed
}
