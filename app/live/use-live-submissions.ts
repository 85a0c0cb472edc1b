import { useEffect, useRef } from 'react'
import type { Submission } from '#app/leads/lead'
import { isLiveMessage, type LiveMessage } from './messages'

const firstRetryMs = 500
const longestRetryMs = 30_000

/** Exponential backoff with jitter, so a restarted server is not met by every watcher at once. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(longestRetryMs, firstRetryMs * 2 ** attempt)
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

function liveUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}/`
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Holds one WebSocket to the server root while the calling page is shown and hands on every
 * message. After every (re)connect it fetches, with the view's own parameters, what arrived
 * after the newest submission already held, so nothing is missed while the link was down;
 * after a reconnect it also says so, since changes to older ones were missed too. After the
 * first connect it hands on the stamp of the server's last change, so a page read before a
 * change its link opened too late to hear can read itself again.
 */
export function useLiveSubmissions({
  newestId,
  viewParams,
  onMessage,
  onReconnected,
  onConnected = () => {},
}: {
  newestId: number
  /** The view's URL parameters, so the catch-up asks only for what the view shows; null: a page of no leads, which catches up itself. */
  viewParams: string | null
  onMessage: (message: LiveMessage) => void
  /** After a reconnect (not the first connect): whatever changed while the link was down was missed. */
  onReconnected: () => void
  /** After the first connect and its catch-up: the stamp of the server's last change (null: not known), heard or not. */
  onConnected?: (changedAt: number | null) => void
}) {
  const newest = useRef(newestId)
  const handle = useRef(onMessage)
  const reconnected = useRef(onReconnected)
  const connected = useRef(onConnected)
  useEffect(() => {
    newest.current = Math.max(newest.current, newestId)
    handle.current = onMessage
    reconnected.current = onReconnected
    connected.current = onConnected
  })

  useEffect(() => {
    let socket: WebSocket | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let attempt = 0
    let leaving = false
    let connectedBefore = false

    async function catchUp(): Promise<number | null> {
      if (viewParams === null) return null
      try {
        const params = new URLSearchParams(viewParams)
        params.set('after', String(newest.current))
        params.set('limit', '500')
        const response = await fetch(`/api/submissions?${params}`, { headers: { Accept: 'application/json' } })
        if (!response.ok) throw new Error(`status ${response.status}`)
        const missed: Submission[] = await response.json()
        for (const submission of missed.reverse())
          handle.current({ type: 'NEW_SUBMISSION', data: submission, counts: [] })
        return Number(response.headers.get('Farm-Changed-At')) || null
      } catch (error) {
        console.error('Failed to fetch submissions', error)
        return null
      }
    }

    function connect() {
      socket = new WebSocket(liveUrl())
      socket.onopen = () => {
        attempt = 0
        const first = !connectedBefore
        connectedBefore = true
        if (!first) reconnected.current()
        void catchUp().then((changedAt) => {
          if (first && !leaving) connected.current(changedAt)
        })
      }
      socket.onmessage = (event) => {
        const message = parse(String(event.data))
        if (isLiveMessage(message)) handle.current(message)
        else if (message === undefined) console.warn('Ignored a live message that is not JSON')
        else
          console.log(
            'Unknown live message type:',
            typeof message === 'object' && message && 'type' in message ? message.type : message,
          )
      }
      socket.onerror = () => console.error('Live connection error')
      socket.onclose = (event) => {
        if (leaving) return
        if (!event.wasClean) console.warn(`Live connection closed unexpectedly (code ${event.code})`)
        retry = setTimeout(connect, retryDelayMs(attempt++))
      }
    }

    connect()
    return () => {
      leaving = true
      clearTimeout(retry)
      socket?.close(1000, 'Left the page')
    }
  }, [viewParams])
}
