import { useRevalidator } from '@remix-run/react'
import { useCallback, useMemo, useRef, useState } from 'react'
import type { LiveMessage } from '#app/live/messages'
import { useLiveSubmissions } from '#app/live/use-live-submissions'
import type { Submission, TagCount } from '#app/leads/lead'
import { matchesView, viewParams, type InboxPage, type InboxView } from './inbox-query'
import { newestFirst } from './newest-first'

/**
 * The one place the inbox's list lives while a view is shown: the loaded page, older pages
 * appended as the owner scrolls, live arrivals that belong in the view, and changes, merged
 * by id, newest first. The counts each message carries go to the filters and the header as
 * they come, so no loader runs again. After the live link was down, the page is loaded again
 * and the older pages dropped: what the server read after a change is truer than the change,
 * so a live message older than the page never overrides it. Mount it anew (a React key) for
 * each view.
 */
export function useInbox({
  firstPage,
  next,
  readAt,
  view,
  onNewSubmission,
  onCounts,
}: {
  firstPage: Submission[]
  /** Where the loaded page ends (its next page's `before`); null when it reaches the oldest. */
  next: number | null
  /** When the server read the loaded page, on the clock that stamps every live message's counts. */
  readAt: number
  /** The view, and where its page ends when it shows a stretch of the past (`before`, `after`). */
  view: InboxView & Pick<InboxPage, 'before' | 'after'>
  /** Every new submission the live link brings, in the view or not. */
  onNewSubmission: (submission: Submission) => void
  /** The counts each message or answer carries, for the filters and the header. */
  onCounts: (counts: TagCount[]) => void
}) {
  const [older, setOlder] = useState<Submission[]>([])
  const [arrived, setArrived] = useState<Stamped[]>([])
  // Each change with when the server read the counts it moved: a later change wins, however
  // its answer and its frame travelled.
  const [changed, setChanged] = useState<ReadonlyMap<number, Stamped>>(new Map())
  const [notInView, setNotInView] = useState(0)
  const [reconnections, setReconnections] = useState(0)

  const arrive = useCallback(
    (submission: Submission, at: number) =>
      setArrived((list) => [{ submission, at }, ...list.filter((held) => held.submission.id !== submission.id)]),
    [],
  )

  /** A change to a submission, as the live link or the answer to this tab's own change brings it. */
  const changedTo = useCallback(
    (submission: Submission, counts: TagCount[]) => {
      onCounts(counts)
      const at = stampOf(counts)
      setChanged((map) => {
        const held = map.get(submission.id)
        return held && held.at >= at ? map : new Map(map).set(submission.id, { submission, at })
      })
      if (matchesView(submission, view)) arrive(submission, at)
    },
    [view, onCounts, arrive],
  )

  /** Cards deleted or forgotten, here or in another tab: gone from every list this view holds. */
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set())
  const remove = useCallback((ids: number[]) => setRemoved((set) => new Set([...set, ...ids])), [])

  const { revalidate } = useRevalidator()
  const onMessage = useCallback(
    (message: LiveMessage) => {
      // The farm's new name is in the page's header and its mails: read the page again.
      if (message.type === 'FARM_RENAMED') return revalidate()
      // An order changed by its link or on the pick-ups page: the card reads its order again.
      if (message.type === 'ORDER_CHANGED') return revalidate()
      if (message.type === 'SUBMISSION_UPDATED') return changedTo(message.data, message.counts)
      onCounts(message.counts)
      if (message.type === 'SUBMISSIONS_REMOVED') return remove(message.ids)
      // One not analysed yet (a catch-up lists it) is told as a lead once it has been read.
      if (!message.data.awaitingAnalysis) onNewSubmission(message.data)
      if (matchesView(message.data, view)) arrive(message.data, stampOf(message.counts))
      else setNotInView((count) => count + 1)
    },
    [view, changedTo, onNewSubmission, onCounts, arrive, remove, revalidate],
  )

  const submissions = useMemo(() => {
    // Within the loaded page's ids, what the server read after a message is the truth.
    const newestLoaded = firstPage[0]?.id ?? 0
    const outdated = ({ submission, at }: Stamped) =>
      at <= readAt && submission.id <= newestLoaded && submission.id > (next ?? 0)
    const live = arrived.filter((held) => !outdated(held)).map(({ submission }) => submission)
    const applied = new Map([...changed].filter(([, held]) => !outdated(held)))
    return newestFirst(live, firstPage, older)
      .map((submission) => applied.get(submission.id)?.submission ?? submission)
      .filter((submission) => !applied.has(submission.id) || matchesView(submission, view))
      .filter((submission) => !removed.has(submission.id))
  }, [arrived, firstPage, next, readAt, older, changed, view, removed])

  // A page that ends at `before` (an older page, a week the insights link to) catches up only within it.
  const params = useMemo(() => {
    const params = viewParams(view)
    if (view.before !== undefined) params.set('before', String(view.before))
    return params.toString()
  }, [view])
  const onReconnected = useCallback(() => {
    // The page and its older pages load again from the server: what the link said before is older still.
    setOlder([])
    setChanged(new Map())
    setArrived([])
    setReconnections((count) => count + 1)
    revalidate()
  }, [revalidate])
  // A change (another tab's, a mail queued when the page was read that has gone or failed) may
  // come between the page's read and its link opening: read the page again then, so no card
  // stays as it was. Other pages cost nothing more.
  const shown = useRef(submissions)
  shown.current = submissions
  const onConnected = useCallback(
    (changedAt: number | null) => {
      const inFlight = shown.current.some((submission) =>
        submission.replies.some((reply) => reply.state === 'queued' || reply.state === 'retrying'),
      )
      if (inFlight || changedAt === null || changedAt > readAt) revalidate()
    },
    [revalidate, readAt],
  )
  useLiveSubmissions({
    newestId: submissions[0]?.id ?? firstPage[0]?.id ?? 0,
    viewParams: params,
    onMessage,
    onReconnected,
    onConnected,
  })

  const addOlder = useCallback((page: Submission[]) => setOlder((list) => newestFirst(list, page)), [])
  return { submissions, notInView, addOlder, changedTo, remove, reconnections }
}

type Stamped = { submission: Submission; at: number }

/** When the server read the counts a message carries: 0 for one that came without (a catch-up). */
const stampOf = (counts: TagCount[]) => Math.max(0, ...counts.map((count) => count.at))
