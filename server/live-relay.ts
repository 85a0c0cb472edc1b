import type { Server } from 'node:http'
import { WebSocket, WebSocketServer } from 'ws'
import type { SubmissionEvents } from '../app/submissions/events.server'
import { log } from './log'

const heartbeatMs = 30_000

/** Sends every new submission to every open socket at the server root. */
export function attachLiveRelay(server: Server, events: SubmissionEvents) {
  const wss = new WebSocketServer({ server, path: '/', maxPayload: 4 * 1024 })
  const alive = new WeakSet<WebSocket>()

  wss.on('connection', (socket) => {
    alive.add(socket)
    socket.on('pong', () => alive.add(socket))
    // Watchers only listen; anything they send is ignored.
    socket.on('message', () => {})
    socket.on('error', (error) => log.warn({ error: error.message }, 'live socket error'))
  })

  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if (!alive.has(socket)) {
        socket.terminate()
        continue
      }
      alive.delete(socket)
      socket.ping()
    }
  }, heartbeatMs)
  heartbeat.unref()

  const unsubscribe = events.subscribe((event) => {
    const frame = JSON.stringify({ type: event.type, data: event.data })
    for (const socket of wss.clients) {
      if (socket.readyState === WebSocket.OPEN) socket.send(frame)
    }
  })

  return {
    close() {
      unsubscribe()
      clearInterval(heartbeat)
      for (const socket of wss.clients) socket.close(1001, 'Server shutting down')
      wss.close()
    },
  }
}
