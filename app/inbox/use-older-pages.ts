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
  // Each start from firstUrl is a run of its own: a page asked for in an earlier run (before a
  // reconnect dropped the older pages) is stale when it comes, and moves nothing.
  const run = useRef(0)
  const loadingIn = useRef<number | null>(null)
  const sentinel = useRef<HTMLElement | null>(null)
  const started = useRef({ firstUrl, restarts })

  useEffect(() => {
    if (started.current.firstUrl === firstUrl && started.current.restarts === restarts) return
    started.current = { firstUrl, restarts }
    run.current++
    next.current = firstUrl
    setState(firstUrl ? 'idle' : 'done')
  }, [firstUrl, restarts])

  const loadMore = useCallback(async () => {
    const url = next.current
    const thisRun = run.current
    if (!url || loadingIn.current === thisRun) return
    loadingIn.current = thisRun
    setState('loading')
    try {
      const response = await fetch(url, { headers: { Accept: 'application/json' } })
      if (!response.ok) throw new Error(`status ${response.status}`)
      const page: Submission[] = await response.json()
      if (run.current !== thisRun) return
      next.current = nextLink.exec(response.headers.get('Link') ?? '')?.[1] ?? null
      onPage(page)
      setState(next.current ? 'idle' : 'done')
    } catch (error) {
      if (run.current !== thisRun) return
      console.error('Failed to fetch older submissions', error)
      setState('failed')
    } finally {
      if (loadingIn.current === thisRun) loadingIn.current = null
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
