import { useCallback, useState } from 'react'
import { askInbox } from '#app/leads/ask-inbox'
import type { Submission, TagCount } from '#app/leads/lead'

/**
 * A card's replies sent to the API: while one is on its way the form waits; the answer's lead
 * goes to the list (the live link brings it to every other tab). A refusal is kept as
 * `problem`, in words, and the text stays in the box.
 */
export function useConversation(id: number, onChanged: (submission: Submission, counts: TagCount[]) => void) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const call = useCallback(
    async (url: string, request: Parameters<typeof askInbox>[1]): Promise<boolean> => {
      setBusy(true)
      setProblem(null)
      const answer = await askInbox(url, request, 'submission')
      setBusy(false)
      if ('problem' in answer) {
        setProblem(answer.problem)
        return false
      }
      onChanged(answer.submission, answer.counts)
      return true
    },
    [onChanged],
  )

  const send = useCallback(
    (text: string, key: string) =>
      call(`/api/submissions/${id}/replies`, { method: 'POST', headers: { 'Idempotency-Key': key }, body: { text } }),
    [id, call],
  )

  const settle = useCallback(
    (replyId: number, action: 'retry' | 'dismiss') =>
      call(`/api/submissions/${id}/replies/${replyId}`, { method: 'PATCH', body: { action } }),
    [id, call],
  )

  return { busy, problem, send, settle }
}
