import { useCallback, useState } from 'react'
import type { Submission, TagCount } from '#app/submissions/submission'
import type { SubmissionChange } from './submission-change'

/** What the inbox API answers a change. */
interface ChangeAnswer {
  data?: Submission
  counts?: TagCount[]
  error?: string
}

/** What a card says when its change never reached the site. */
export const unreachable = 'the farm site could not be reached. Check the connection and try again.'

/**
 * A card's change (handled, new, not spam) sent to the inbox API. While it is on its way the
 * card shows what was asked; the answer's submission and counts then go to the list, once.
 * A refusal or a lost connection is kept as `problem`, in words, and the card shows its true
 * state again.
 */
export function useSubmissionChange(id: number, onChanged: (submission: Submission, counts: TagCount[]) => void) {
  const [asked, setAsked] = useState<SubmissionChange | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  const change = useCallback(
    async (wanted: SubmissionChange) => {
      setAsked(wanted)
      setProblem(null)
      try {
        const response = await fetch(`/api/submissions/${id}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(wanted),
        })
        const answer: ChangeAnswer | null = await response.json().catch(() => null)
        if (response.ok && answer?.data) onChanged(answer.data, answer.counts ?? [])
        else setProblem(answer?.error ?? `the site answered ${response.status}.`)
      } catch {
        setProblem(unreachable)
      } finally {
        setAsked(null)
      }
    },
    [id, onChanged],
  )

  return { asked, problem, change }
}
