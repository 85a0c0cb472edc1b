import { Link } from '@remix-run/react'
import type { Submission, TagCount } from '#app/leads/lead'
import type { Answering, ReplyProblem } from './answering'
import { buttonStyle, MailsWithThem } from './thread-mails'
import { useConversation } from './use-conversation'
import { useReplyDraft } from './use-reply-draft'

export type { Answering, ReplyProblem } from './answering'

/** The reply box: a saved reply to start from, the text, why it was not sent, and the send button. */
function ReplyBox({
  submission,
  answering,
  open,
  busy,
  draft,
}: {
  submission: Submission
  answering: Answering
  open: boolean
  busy: boolean
  draft: ReturnType<typeof useReplyDraft>
}) {
  return (
    // Folded until wanted, so a page of cards stays a list to read; open again after a refusal.
    <details open={open} className="mt-3">
      <summary className="inline-block cursor-pointer list-none rounded-full bg-green-800 px-5 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-green-900">
        Reply
      </summary>
      <form method="post" onSubmit={draft.sendReply} className="mt-3">
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="id" value={submission.id} />
        <input type="hidden" name="key" value={draft.key} />
        <div className="flex flex-wrap items-end justify-between gap-2">
          <label htmlFor={`reply-${submission.id}`} className="text-sm font-semibold text-stone-800">
            Reply to {submission.name}
          </label>
          {answering.savedReplies.length > 0 ? (
            <select
              name="savedReply"
              aria-label="Saved reply"
              defaultValue=""
              onChange={(event) => draft.fillSaved(event.target.value)}
              className="max-w-full rounded-lg border border-stone-300 bg-white px-2 py-1 text-sm"
            >
              <option value="">Saved reply…</option>
              {answering.savedReplies.map((saved) => (
                <option key={saved.id} value={saved.id}>
                  {saved.name}
                </option>
              ))}
            </select>
          ) : null}
        </div>
        <textarea
          id={`reply-${submission.id}`}
          name="text"
          rows={5}
          value={draft.text}
          onChange={(event) => draft.edit(event.target.value)}
          aria-invalid={draft.shownProblem ? true : undefined}
          aria-describedby={draft.shownProblem ? `reply-problem-${submission.id}` : undefined}
          className="mt-1.5 block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none"
        />
        {draft.shownProblem ? (
          <p id={`reply-problem-${submission.id}`} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
            Not sent: {draft.shownProblem}
          </p>
        ) : null}
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <button type="submit" disabled={busy} className={buttonStyle}>
            Send reply
          </button>
          <Link to="/farm-sales/saved-replies" className="text-sm text-green-800 underline">
            Saved replies
          </Link>
        </div>
      </form>
    </details>
  )
}

/**
 * Under the message: what the farm sent the visitor (each mail with its time and delivery, a
 * failed one with the server's words and 'Try again' / 'Dismiss'), then the reply box. Without
 * JavaScript both are forms to the page's action; with it, they go to the replies API.
 */
export function Conversation({
  submission,
  answering,
  problemSent,
  onChanged,
}: {
  submission: Submission
  answering: Answering
  problemSent: ReplyProblem | null
  onChanged: (submission: Submission, counts: TagCount[]) => void
}) {
  const conversation = useConversation(submission.id, onChanged)
  const draft = useReplyDraft({ submission, answering, problemSent, conversation })
  const canReply = answering.cannotReply === null && submission.spam === null

  return (
    <div className="mt-4">
      <MailsWithThem
        submission={submission}
        mayRetry={answering.cannotReply === null}
        busy={conversation.busy}
        settle={conversation.settle}
      />
      {/* Why no one can answer is said once, above the cards, not on each of them. */}
      {canReply ? (
        <ReplyBox
          submission={submission}
          answering={answering}
          open={problemSent !== null}
          busy={conversation.busy}
          draft={draft}
        />
      ) : submission.spam !== null ? (
        <p className="mt-3 text-sm text-stone-600">This message is in the spam folder: mark it ‘Not spam’ to reply.</p>
      ) : null}
    </div>
  )
}
