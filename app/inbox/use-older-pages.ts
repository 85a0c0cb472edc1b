import { useCallback, useEffect, useRef, useState } from 'react'
import type { Submission } from '#app/leads/lead'

export type OlderPagesState = 'idle' | 'loading' | 'failed' | 'done'

const nextLink = /<([^>]+)>;\s*rel="next"/

/**
 * Loads the next older page of the view from the list API when `sentinel` scrolls into
 * sight (or on `loadMore`), and follows the API's `Link: rel="next"` until there is none.
 */
export function useOlderPages({
  firstUrl,
  onPage,
  restarts,
}: {
  /** The API address of the page after the loaded one; null when the loaded page was the last. */
  firstUrl: string | null
  onPage: (page: Submission[]) => void
  /** Counts the times the older pages were dropped (they may be stale): each starts again from firstUrl. */
  restarts: number
}) {
  const [state, setState] = useState<OlderPagesState>(firstUrl ? 'idle' : 'done')
  const next = useRef(firstUrl)
  const busy = useRef(false)
  const sentinel = useRef<HTMLElement | null>(null)
  const started = useRef({ firstUrl, restarts })

  useEffect(() => {
    if (started.current.firstUrl === firstUrl && started.current.restarts === restarts) return
    started.current = { firstUrl, restarts }
    next.current = firstUrl
    setState(firstUrl ? 'idle' : 'done')
  }, [firstUrl, restarts])

  const loadMore = useCallback(async () => {
    const url = next.current
    if (!url || busy.current) return
    busy.current = true
    setState('loading')
    try {
      const response = await fetch(url, { headers: { Accept: 'application/json' } })
      if (!response.ok) throw new Error(`status ${response.status}`)
      const page: Submission[] = await response.json()
      next.current = nextLink.exec(response.headers.get('Link') ?? '')?.[1] ?? null
      onPage(page)
      setState(next.current ? 'idle' : 'done')
    } catch (error) {
      console.error('Failed to fetch older submissions', error)
      setState('failed')
    } finally {
      busy.current = false
    }
  }, [onPage])

  useEffect(() => {
    const element = sentinel.current
    if (!element || state !== 'idle') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadMore()
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [state, loadMore])

  return { state, loadMore, sentinel, nextUrl: next.current }
}
