import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { visitorKey } from '#app/limits/rate-limit.server'
import type { SubmissionEvent, SubmissionEvents } from './events.server'
import type { LiveMessage } from './messages'
import type { Log } from '#app/log'
import type { TagCount } from '#app/leads/lead'

/** A watcher this far behind is not reading; holding more for it only costs memory. */
const mostBufferedBytes = 1024 * 1024

/** Whose socket it is: the owner's session, which ends the socket when it ends. */
export interface Watcher {
  session: string | null
  expiresAt: number
}

export interface RelayOptions {
  /** Decides whether an upgrade may become a live socket: the watcher to admit, or the HTTP status to refuse with. */
  admit(req: IncomingMessage): Promise<Watcher | number>
  mostSockets: number
  /** So one address cannot take every socket from everyone else. */
  mostSocketsPerAddress: number
  addressOf(req: IncomingMessage): string
  /** How often every socket must answer a ping to stay open. */
  heartbeatMs?: number
  /** The counts a change moved, sent with it so no page has to ask. */
  countsOf(event: SubmissionEvent): TagCount[]
  log: Log
  now?: () => number
}

function refuseUpgrade(socket: Duplex, status: number, reason: string) {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

const reasons: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
}

// How long a watcher gets to answer the closing handshake before its socket is cut.
const closeGraceMs = 2_000

/** Sends every new submission to every open socket at the server root. */
export function attachLiveRelay(
  server: Server,
  events: SubmissionEvents,
  {
    admit,
    mostSockets,
    mostSocketsPerAddress,
    addressOf,
    heartbeatMs = 30_000,
    countsOf,
    log,
    now = Date.now,
  }: RelayOptions,
) {
  // A small maxPayload: watchers only listen, so a large frame closes the socket with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 })
  const alive = new WeakSet<WebSocket>()
  const watchers = new WeakMap<WebSocket, Watcher>()
  const socketsByAddress = new Map<string, number>()

  server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const path = (req.url ?? '').split('?')[0]
    const admitted = path === '/' ? await admit(req).catch(() => 503) : 404
    const address = visitorKey(addressOf(req))
    const refuse = (status: number) => refuseUpgrade(socket, status, reasons[status] ?? 'Refused')
    if (typeof admitted === 'number') return refuse(admitted)
    if (wss.clients.size >= mostSockets) return refuse(503)
    if ((socketsByAddress.get(address) ?? 0) >= mostSocketsPerAddress) return refuse(429)
    // Counted before the handshake completes, so a burst of upgrades cannot slip past the cap.
    socketsByAddress.set(address, (socketsByAddress.get(address) ?? 0) + 1)
    const release = () => {
      const left = (socketsByAddress.get(address) ?? 1) - 1
      if (left > 0) socketsByAddress.set(address, left)
      else socketsByAddress.delete(address)
    }
    socket.once('close', release)
    wss.handleUpgrade(req, socket, head, (ws) => {
      watchers.set(ws, admitted)
      wss.emit('connection', ws, req)
    })
  })

  wss.on('connection', (socket: WebSocket) => {
    alive.add(socket)
    socket.on('pong', () => alive.add(socket))
    // Anything a watcher sends is ignored.
    socket.on('message', () => {})
    socket.on('error', (error) => log.warn({ error: error.message }, 'live socket error'))
  })

  // Policy violation: the session that opened the socket has ended; the page's reconnect meets the sign-in check.
  const endWatch = (socket: WebSocket, reason: string) => {
    socket.close(1008, reason)
    setTimeout(() => socket.terminate(), closeGraceMs).unref()
  }

  const heartbeat = setInterval(() => {
    const at = now()
    for (const socket of wss.clients) {
      if ((watchers.get(socket)?.expiresAt ?? 0) <= at) {
        endWatch(socket, 'Session expired')
        continue
      }
      if (!alive.has(socket)) {
        socket.terminate()
        continue
      }
      alive.delete(socket)
      socket.ping()
    }
  }, heartbeatMs)
  heartbeat.unref()

  /** The counts to send with a change; without them (say, a busy database) the news still goes out. */
  function countsRead(event: SubmissionEvent): TagCount[] {
    try {
      return countsOf(event)
    } catch (error) {
      log.error({ err: error }, 'could not read the counts for a live message; sent without them')
      return []
    }
  }

  const unsubscribe = events.subscribe((event) => {
    // Encoded once for every watcher: ws sends a buffer as it is, where a string is encoded per socket.
    if (wss.clients.size === 0) return
    const message: LiveMessage = { ...event, counts: countsRead(event) }
    const frame = Buffer.from(JSON.stringify(message))
    for (const socket of wss.clients) {
      if (socket.readyState !== WebSocket.OPEN) continue
      if (socket.bufferedAmount > mostBufferedBytes) {
        log.warn({}, 'dropped a live socket that stopped reading')
        socket.terminate()
        continue
      }
      socket.send(frame, { binary: false })
    }
  })

  return {
    /** Closes every socket the session opened, the moment it signs out; null: those the open inbox let in, once it closes. */
    endSession(session: string | null) {
      for (const socket of wss.clients) if (watchers.get(socket)?.session === session) endWatch(socket, 'Signed out')
    },

    /**
     * Says goodbye (1001) to every watcher. A socket whose peer never answers
     * would hold the HTTP server open for ws's 30 s close timeout, so it is cut
     * after a short grace.
     */
    close() {
      unsubscribe()
      clearInterval(heartbeat)
      for (const socket of wss.clients) socket.close(1001, 'Server shutting down')
      wss.close()
      setTimeout(() => {
        for (const socket of wss.clients) socket.terminate()
      }, closeGraceMs).unref()
    },
  }
}
