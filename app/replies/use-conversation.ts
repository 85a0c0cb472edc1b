import { useCallback, useState } from 'react'
import { unreachable } from '#app/inbox/use-submission-change'
import type { Submission, TagCount } from '#app/submissions/submission'

/** What the replies API answers: the lead as it now is, with its thread, and the counts that moved. */
interface ReplyAnswer {
  submission?: Submission
  counts?: TagCount[]
  error?: string
}

/**
 * A card's replies sent to the API: while one is on its way the form waits; the answer's lead
 * goes to the list (the live link brings it to every other tab). A refusal is kept as
 * `problem`, in words, and the text stays in the box.
 */
export function useConversation(id: number, onChanged: (submission: Submission, counts: TagCount[]) => void) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const call = useCallback(
    async (url: string, init: RequestInit): Promise<boolean> => {
      setBusy(true)
      setProblem(null)
      try {
        const response = await fetch(url, init)
        const answer: ReplyAnswer | null = await response.json().catch(() => null)
        if (response.ok && answer?.submission) {
          onChanged(answer.submission, answer.counts ?? [])
          return true
        }
        setProblem(answer?.error ?? `the site answered ${response.status}.`)
      } catch {
        setProblem(unreachable)
      } finally {
        setBusy(false)
      }
      return false
    },
    [onChanged],
  )

  const send = useCallback(
    (text: string, key: string) =>
      call(`/api/submissions/${id}/replies`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ text }),
      }),
    [id, call],
  )

  const settle = useCallback(
    (replyId: number, action: 'retry' | 'dismiss') =>
      call(`/api/submissions/${id}/replies/${replyId}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ action }),
      }),
    [id, call],
  )

  return { busy, problem, send, settle }
}
