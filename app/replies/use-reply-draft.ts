import { useState, type FormEvent } from 'react'
import type { Submission } from '#app/leads/lead'
import { fillPlaceholders, productsInWords } from '#app/writing/placeholders'
import type { Answering, ReplyProblem } from './answering'
import { replyTextError } from './reply'
import type { useConversation } from './use-conversation'

/** A card's reply being written: its text, what was last refused, its request key, and its sending. */
export function useReplyDraft({
  submission,
  answering,
  problemSent,
  conversation: { problem, send },
}: {
  submission: Submission
  answering: Answering
  problemSent: ReplyProblem | null
  conversation: Pick<ReturnType<typeof useConversation>, 'problem' | 'send'>
}) {
  const [text, setText] = useState(problemSent?.text ?? '')
  // What this card last heard refused (from the page's action, or checked here); cleared by an edit or a send.
  const [seenProblem, setSeenProblem] = useState<string | null>(problemSent?.error ?? null)
  // One key per draft: a send whose answer was lost, sent again, is still the same reply.
  const [sent, setSent] = useState(0)
  const key = `${answering.formKey}-${submission.id}-${sent}`
  const shownProblem = seenProblem ?? problem

  function sendReply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const refused = replyTextError(text)
    if (refused) return setSeenProblem(refused)
    setSeenProblem(null)
    void send(text, key).then((done) => {
      if (!done) return
      setText('')
      setSent((count) => count + 1)
    })
  }

  function fillSaved(id: string) {
    const saved = answering.savedReplies.find((reply) => String(reply.id) === id)
    if (!saved) return
    setText(
      fillPlaceholders(saved.text, {
        name: submission.name,
        farm: answering.farmName,
        products: productsInWords(submission.analysis?.products ?? []),
      }),
    )
  }

  function edit(typed: string) {
    setText(typed)
    setSeenProblem(null)
  }

  return { text, key, shownProblem, sendReply, fillSaved, edit }
}
