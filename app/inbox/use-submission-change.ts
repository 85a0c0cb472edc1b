import { useCallback, useState } from 'react'
import type { Submission, TagCount } from '#app/leads/lead'
import { askInbox } from '#app/leads/ask-inbox'
import type { SubmissionChange } from './submission-change'

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
      const answer = await askInbox(`/api/submissions/${id}`, { method: 'PATCH', body: wanted }, 'data')
      if ('problem' in answer) setProblem(answer.problem)
      else onChanged(answer.submission, answer.counts)
      setAsked(null)
    },
    [id, onChanged],
  )

  return { asked, problem, change }
}
