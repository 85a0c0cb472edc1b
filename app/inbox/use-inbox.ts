import { useRevalidator } from '@remix-run/react'
import { useCallback, useMemo, useState } from 'react'
import type { LiveMessage } from '#app/live/messages'
import { useLiveSubmissions } from '#app/live/use-live-submissions'
import type { Submission, TagCount } from '#app/submissions/submission'
import { matchesView, viewParams, type InboxView } from './inbox-query'
import { newestFirst } from './newest-first'

/**
 * The one place the inbox's list lives while a view is shown: the loaded page, older pages
 * appended as the owner scrolls, live arrivals that belong in the view, and changes, merged
 * by id, newest first. The counts each message carries go to the filters and the header as
 * they come, so no loader runs again. Mount it anew (a React key) for each view.
 */
export function useInbox({
  firstPage,
  view,
  onNewSubmission,
  onCounts,
}: {
  firstPage: Submission[]
  view: InboxView
  /** Every new submission the live link brings, in the view or not. */
  onNewSubmission: (submission: Submission) => void
  /** The counts each message or answer carries, for the filters and the header. */
  onCounts: (counts: TagCount[]) => void
}) {
  const [older, setOlder] = useState<Submission[]>([])
  const [arrived, setArrived] = useState<Submission[]>([])
  // Each change with when the server read the counts it moved: a later change wins, however
  // its answer and its frame travelled.
  const [changed, setChanged] = useState<ReadonlyMap<number, { submission: Submission; at: number }>>(new Map())
  const [notInView, setNotInView] = useState(0)

  /** A change to a submission, as the live link or the answer to this tab's own change brings it. */
  const changedTo = useCallback(
    (submission: Submission, counts: TagCount[]) => {
      onCounts(counts)
      const at = Math.max(0, ...counts.map((count) => count.at))
      setChanged((map) => {
        const held = map.get(submission.id)
        return held && held.at >= at ? map : new Map(map).set(submission.id, { submission, at })
      })
      if (matchesView(submission, view)) setArrived((list) => newestFirst([submission], list))
    },
    [view, onCounts],
  )

  const onMessage = useCallback(
    (message: LiveMessage) => {
      if (message.type === 'SUBMISSION_UPDATED') return changedTo(message.data, message.counts)
      onCounts(message.counts)
      onNewSubmission(message.data)
      if (matchesView(message.data, view)) setArrived((list) => newestFirst([message.data], list))
      else setNotInView((count) => count + 1)
    },
    [view, changedTo, onNewSubmission, onCounts],
  )

  const submissions = useMemo(
    () =>
      newestFirst(arrived, firstPage, older)
        .map((submission) => changed.get(submission.id)?.submission ?? submission)
        .filter((submission) => !changed.has(submission.id) || matchesView(submission, view)),
    [arrived, firstPage, older, changed, view],
  )

  const params = useMemo(() => viewParams(view).toString(), [view])
  // What was missed while the link was down came without its counts: the loaders count again.
  const { revalidate } = useRevalidator()
  useLiveSubmissions({
    newestId: submissions[0]?.id ?? firstPage[0]?.id ?? 0,
    viewParams: params,
    onMessage,
    onCaughtUp: revalidate,
  })

  const addOlder = useCallback((page: Submission[]) => setOlder((list) => newestFirst(list, page)), [])
  return { submissions, notInView, addOlder, changedTo }
}
