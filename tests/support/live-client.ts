import { WebSocket } from 'ws'

export interface LiveClient {
  socket: WebSocket
  /** The next message the server sends, parsed; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<{ type: string; data: Record<string, unknown>; counts: Array<{ at: number }> }>
  close(): void
}

/** A real `ws` client on the server root, as the Farm Sales page opens it. */
export async function connectLive(wsUrl: string, headers: Record<string, string> = {}): Promise<LiveClient> {
  const socket = new WebSocket(wsUrl, { headers })
  const queue: string[] = []
  const waiting: Array<(text: string) => void> = []
  socket.on('message', (raw) => {
    const text = raw.toString()
    const waiter = waiting.shift()
    if (waiter) waiter(text)
    else queue.push(text)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    socket,
    next(timeoutMs = 5_000) {
      const queued = queue.shift()
      if (queued !== undefined) return Promise.resolve(JSON.parse(queued))
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('No live message arrived')), timeoutMs)
        waiting.push((text) => {
          clearTimeout(timer)
          resolve(JSON.parse(text))
        })
      })
    },
    close: () => socket.close(),
  }
}
