import { useEffect, useRef } from 'react'
import type { LiveMessage, Submission } from '~/submissions/submission'

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

/**
 * Holds one WebSocket to the server root while the calling page is shown.
 * After every (re)connect it fetches what arrived after the newest submission
 * already held, so nothing is missed while the link was down.
 */
export function useLiveSubmissions(newestId: number, onArrive: (submission: Submission) => void) {
  const newest = useRef(newestId)
  const arrive = useRef(onArrive)
  useEffect(() => {
    newest.current = Math.max(newest.current, newestId)
    arrive.current = onArrive
  })

  useEffect(() => {
    let socket: WebSocket | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let attempt = 0
    let leaving = false

    async function catchUp() {
      try {
        const response = await fetch(`/api/submissions?after=${newest.current}`, {
          headers: { Accept: 'application/json' },
        })
        if (!response.ok) throw new Error(`status ${response.status}`)
        const missed: Submission[] = await response.json()
        for (const submission of missed.reverse()) arrive.current(submission)
      } catch (error) {
        console.error('Failed to fetch submissions', error)
      }
    }

    function connect() {
      socket = new WebSocket(liveUrl())
      socket.onopen = () => {
        attempt = 0
        void catchUp()
      }
      socket.onmessage = (event) => {
        let message: LiveMessage
        try {
          message = JSON.parse(String(event.data))
        } catch {
          console.warn('Ignored a live message that is not JSON')
          return
        }
        if (message.type === 'NEW_SUBMISSION' && message.data) arrive.current(message.data as Submission)
        else console.log('Unknown live message type:', message.type)
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
  }, [])
}
