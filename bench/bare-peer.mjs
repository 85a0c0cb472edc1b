// The bare peer for `npm run bench`: the least code that does the product's POST and live
// job — Express 4, better-sqlite3 in WAL with synchronous=FULL, and ws on the same HTTP
// server. A submission is inserted, sent to every socket, and answered 201 with its row.
//
//   PORT=3001 DATABASE_PATH=/tmp/bare.db node bench/bare-peer.mjs
import { createServer } from 'node:http'
import Sqlite from 'better-sqlite3'
import express from 'express'
import { WebSocketServer } from 'ws'

const db = new Sqlite(process.env.DATABASE_PATH)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.exec(
  'CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY, name TEXT, email TEXT, message TEXT, created_at TEXT)',
)
const insert = db.prepare('INSERT INTO submissions (name, email, message, created_at) VALUES (?, ?, ?, ?) RETURNING *')

const app = express()
app.use(express.json())
app.get('/', (_req, res) => res.send('<!doctype html><title>Farm</title><h1>Farm</h1>'))
app.post('/api/submissions', (req, res) => {
  const { counts, ...posted } = req.body
  const row = insert.get(posted.name, posted.email, posted.message, new Date().toISOString())
  // The watchers get what was posted with the stored row (and any counts beside it), so the
  // bench can hand the peer frames as large as the product's (which carry the analysis and the
  // counts a submission moved) and compare relays.
  const frame = JSON.stringify({ type: 'NEW_SUBMISSION', data: { ...posted, ...row }, ...(counts ? { counts } : {}) })
  for (const socket of wss.clients) socket.send(frame)
  res.status(201).json({ message: 'Thank you!', data: row })
})
const server = createServer(app)
const wss = new WebSocketServer({ server })
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'))
