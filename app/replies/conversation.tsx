import { Link } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { absoluteUtc } from '#app/leads/when-arrived'
import type { Submission, TagCount } from '#app/leads/lead'
import { fillPlaceholders, productsInWords } from '#app/writing/placeholders'
import type { Reply } from '#app/leads/lead'
import { deliveryWords, replyKindWords, replyTextError } from './reply'
import { useConversation } from './use-conversation'

/** What a card needs to answer: whether mail can go out (and why not), the saved replies, the farm's name. */
export interface Answering {
  /** Why the owner cannot send from here (what to set), or null. */
  cannotReply: string | null
  savedReplies: Array<{ id: number; name: string; text: string }>
  farmName: string
  /** This page load's part of each reply form's key: a form sent twice is one reply. */
  formKey: string
}

/** A reply the page's action refused when sent without JavaScript: shown on its card, with the text kept. */
export interface ReplyProblem {
  id: number
  error: string
  text: string
}

const stateStyles: Record<Reply['state'], string> = {
  queued: 'bg-stone-100 text-stone-800',
  sent: 'bg-green-100 text-green-900',
  retrying: 'bg-amber-100 text-amber-950',
  failed: 'bg-red-100 text-red-900',
  bounced: 'bg-red-100 text-red-900',
  received: 'bg-sky-100 text-sky-950',
}

/** A mail named for a screen reader's list of buttons, e.g. "your reply of 23 Nov 2026, 10:05 UTC". */
const mailName = (reply: Reply) => `${replyKindWords[reply.kind].inSentence} of ${absoluteUtc(reply.createdAt)}`

/** Read back from the farm's mailbox: the visitor's own words, or their mail program's. */
const theirs = (reply: Reply) => reply.kind === 'answer' || reply.kind === 'automatic-answer'
/** A mail that did not reach them: refused, given up, or returned. */
const failed = (reply: Reply) => reply.state === 'failed' || reply.state === 'bounced'
const fileSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`

const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'

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
  const { busy, problem, send, settle } = useConversation(submission.id, onChanged)
  const [text, setText] = useState(problemSent?.text ?? '')
  // What this card last heard refused (from the page's action, or checked here); cleared by an edit or a send.
  const [seenProblem, setSeenProblem] = useState<string | null>(problemSent?.error ?? null)
  // One key per draft: a send whose answer was lost, sent again, is still the same reply.
  const [sent, setSent] = useState(0)
  const key = `${answering.formKey}-${submission.id}-${sent}`
  const canReply = answering.cannotReply === null && submission.spam === null
  const earlier = submission.replyCount - submission.replies.length
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

  function settleFailed(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const replyId = Number(new FormData(event.currentTarget).get('replyId'))
    const action =
      submitter?.value === 'dismiss-reply' ? 'dismiss' : submitter?.value === 'retry-reply' ? 'retry' : null
    if (!action) return
    event.preventDefault()
    void settle(replyId, action)
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

  return (
    <div className="mt-4">
      {submission.replies.length > 0 ? (
        <div className="border-t border-stone-200 pt-3">
          <h3 className="sr-only">Mails with {submission.name}</h3>
          {earlier > 0 ? (
            <p className="mb-2 text-sm text-stone-600">
              {earlier === 1 ? '1 earlier mail' : `${earlier} earlier mails`} not shown.
            </p>
          ) : null}
          <ol className="space-y-3">
            {submission.replies.map((reply, index) => (
              <li
                key={reply.id}
                data-testid="reply"
                // Their words, read back from the farm's mailbox, stand apart from the farm's own.
                className={`rounded-xl p-3 ring-1 ${theirs(reply) ? 'ml-4 bg-sky-50 ring-sky-200' : 'mr-4 bg-stone-50 ring-stone-200'}`}
              >
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-stone-700">
                  <span className="font-bold text-stone-900">{replyKindWords[reply.kind].heading}</span>
                  {reply.by ? <span data-testid="reply-by">by {reply.by}</span> : null}
                  <time dateTime={reply.createdAt}>{absoluteUtc(reply.createdAt)}</time>
                  <span
                    data-testid="delivery"
                    // The newest mail's delivery is told as it changes (queued, then sent or failed).
                    role={index === submission.replies.length - 1 ? 'status' : undefined}
                    className={`rounded-full px-2 py-0.5 font-bold ${stateStyles[reply.state]}`}
                  >
                    {deliveryWords(reply, absoluteUtc)}
                  </span>
                </p>
                {reply.failure && reply.state !== 'sent' ? (
                  <p className={`mt-1 text-sm break-words ${failed(reply) ? 'text-red-800' : 'text-stone-700'}`}>
                    {reply.state === 'bounced'
                      ? 'It came back: '
                      : reply.state === 'failed'
                        ? 'The mail server said: '
                        : 'Last try: '}
                    {reply.failure}
                  </p>
                ) : null}
                {reply.otherSender ? (
                  <p className="mt-1 text-sm break-words text-stone-700">
                    From {reply.otherSender}, not the address they wrote from.
                  </p>
                ) : null}
                {/* The acknowledgement is the owner's own fixed text: the card only says it went. */}
                {reply.kind === 'reply' || theirs(reply) ? (
                  <p className="mt-1.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-stone-800">
                    {reply.text}
                    {reply.cut ? (
                      <span className="text-stone-600">
                        {theirs(reply)
                          ? ' (shortened here; the whole answer is in your mailbox)'
                          : ' (shortened here; the whole reply is in the mail)'}
                      </span>
                    ) : null}
                  </p>
                ) : null}
                {reply.attachments.length > 0 ? (
                  <div className="mt-1.5 text-sm text-stone-700">
                    <p>Files with it (in your mailbox, not kept here):</p>
                    <ul className="list-inside list-disc">
                      {reply.attachments.map((file, at) => (
                        <li key={at} className="break-words">
                          {file.name} ({fileSize(file.bytes)})
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                {failed(reply) && !reply.dismissed && answering.cannotReply === null ? (
                  <form method="post" onSubmit={settleFailed} className="mt-2 flex flex-wrap gap-2">
                    <input type="hidden" name="id" value={submission.id} />
                    <input type="hidden" name="replyId" value={reply.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="retry-reply"
                      disabled={busy}
                      aria-label={`Try again: ${mailName(reply)}`}
                      className={buttonStyle}
                    >
                      Try again
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value="dismiss-reply"
                      disabled={busy}
                      aria-label={`Dismiss: ${mailName(reply)}`}
                      className={buttonStyle}
                    >
                      Dismiss
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {/* Why no one can answer is said once, above the cards, not on each of them. */}
      {canReply ? (
        // Folded until wanted, so a page of cards stays a list to read; open again after a refusal.
        <details open={problemSent !== null} className="mt-3">
          <summary className={`inline-block cursor-pointer list-none ${buttonStyle}`}>Reply</summary>
          <form method="post" onSubmit={sendReply} className="mt-3">
            <input type="hidden" name="intent" value="reply" />
            <input type="hidden" name="id" value={submission.id} />
            <input type="hidden" name="key" value={key} />
            <div className="flex flex-wrap items-end justify-between gap-2">
              <label htmlFor={`reply-${submission.id}`} className="text-sm font-semibold text-stone-800">
                Reply to {submission.name}
              </label>
              {answering.savedReplies.length > 0 ? (
                <select
                  name="savedReply"
                  aria-label="Saved reply"
                  defaultValue=""
                  onChange={(event) => fillSaved(event.target.value)}
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
              value={text}
              onChange={(event) => {
                setText(event.target.value)
                setSeenProblem(null)
              }}
              aria-invalid={shownProblem ? true : undefined}
              aria-describedby={shownProblem ? `reply-problem-${submission.id}` : undefined}
              className="mt-1.5 block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none"
            />
            {shownProblem ? (
              <p id={`reply-problem-${submission.id}`} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
                Not sent: {shownProblem}
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
      ) : submission.spam !== null ? (
        <p className="mt-3 text-sm text-stone-600">This message is in the spam folder: mark it ‘Not spam’ to reply.</p>
      ) : null}
    </div>
  )
}
