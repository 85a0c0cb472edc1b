import { useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { matchesView, viewParams, type InboxView } from '~/submissions/inbox-query'
import { newestFirst } from '~/submissions/newest-first'
import type { LiveMessage, Submission } from '~/submissions/submission'
import { useLiveSubmissions } from './use-live-submissions'

/**
 * The one place the inbox's list lives while a view is shown: the loaded page, older pages
 * appended as the owner scrolls, live arrivals that belong in the view, and changes, merged
 * by id, newest first. Mount it anew (a React key) for each view.
 */
export function useInbox({
  firstPage,
  view,
  onNewSubmission,
}: {
  firstPage: Submission[]
  view: InboxView
  /** Every new submission the live link brings, in the view or not. */
  onNewSubmission: (submission: Submission) => void
}) {
  const [older, setOlder] = useState<Submission[]>([])
  const [arrived, setArrived] = useState<Submission[]>([])
  const [changed, setChanged] = useState<ReadonlyMap<number, Submission>>(new Map())
  const [notInView, setNotInView] = useState(0)
  // The counts (new, per filter) come from the loaders: read again once a burst of news settles.
  const { revalidate } = useRevalidator()
  const recount = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(recount.current), [])

  const onMessage = useCallback(
    (message: LiveMessage) => {
      clearTimeout(recount.current)
      recount.current = setTimeout(revalidate, 500)
      const submission = message.data
      if (message.type === 'NEW_SUBMISSION') onNewSubmission(submission)
      if (message.type === 'SUBMISSION_UPDATED') setChanged((map) => new Map(map).set(submission.id, submission))
      if (matchesView(submission, view)) setArrived((list) => newestFirst([submission], list))
      else if (message.type === 'NEW_SUBMISSION') setNotInView((count) => count + 1)
    },
    [view, revalidate, onNewSubmission],
  )

  const submissions = useMemo(
    () =>
      newestFirst(arrived, firstPage, older)
        .map((submission) => changed.get(submission.id) ?? submission)
        .filter((submission) => !changed.has(submission.id) || matchesView(submission, view)),
    [arrived, firstPage, older, changed, view],
  )

  const params = useMemo(() => viewParams(view).toString(), [view])
  useLiveSubmissions({ newestId: submissions[0]?.id ?? firstPage[0]?.id ?? 0, viewParams: params, onMessage })

  const addOlder = useCallback((page: Submission[]) => setOlder((list) => newestFirst(list, page)), [])
  return { submissions, notInView, addOlder }
}
