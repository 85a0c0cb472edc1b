import type { FormEvent } from 'react'
import { absoluteTime } from '#app/leads/when-arrived'
import { useFarmClock } from '#app/clock/use-farm-clock'
import type { Reply, Submission } from '#app/leads/lead'
import { deliveryWords, replyKindWords } from './reply'

const stateStyles: Record<Reply['state'], string> = {
  queued: 'bg-stone-100 text-stone-800',
  sent: 'bg-green-100 text-green-900',
  retrying: 'bg-amber-100 text-amber-950',
  failed: 'bg-red-100 text-red-900',
  bounced: 'bg-red-100 text-red-900',
  received: 'bg-sky-100 text-sky-950',
}

/** A mail named for a screen reader's list of buttons, e.g. "your reply of 23 Nov 2026, 10:05". */
const mailName = (reply: Reply, zone: string) =>
  `${replyKindWords[reply.kind].inSentence} of ${absoluteTime(reply.createdAt, zone)}`

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

/** The look of a conversation's buttons: its mails' and the reply box's. */
export const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'

/** One mail of the conversation: who wrote it and when, how its delivery went, its words and files. */
function ThreadMail({
  reply,
  newest,
  submissionId,
  mayRetry,
  busy,
  onSettle,
}: {
  reply: Reply
  newest: boolean
  submissionId: number
  /** Whether a failed mail may be tried again or dismissed from here (mail can go out). */
  mayRetry: boolean
  busy: boolean
  onSettle: (event: FormEvent<HTMLFormElement>) => void
}) {
  const zone = useFarmClock()
  const time = (iso: string) => absoluteTime(iso, zone)
  return (
    <li
      data-testid="reply"
      // Their words, read back from the farm's mailbox, stand apart from the farm's own.
      className={`rounded-xl p-3 ring-1 ${theirs(reply) ? 'ml-4 bg-sky-50 ring-sky-200' : 'mr-4 bg-stone-50 ring-stone-200'}`}
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-stone-700">
        <span className="font-bold text-stone-900">{replyKindWords[reply.kind].heading}</span>
        {reply.by ? <span data-testid="reply-by">by {reply.by}</span> : null}
        <time dateTime={reply.createdAt}>{time(reply.createdAt)}</time>
        <span
          data-testid="delivery"
          // The newest mail's delivery is told as it changes (queued, then sent or failed).
          role={newest ? 'status' : undefined}
          className={`rounded-full px-2 py-0.5 font-bold ${stateStyles[reply.state]}`}
        >
          {deliveryWords(reply, time)}
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
      {reply.tooLarge ? (
        <p data-testid="too-large" className="mt-1.5 text-sm break-words text-stone-700 italic">
          Too large to read here: the whole mail is in the farm’s mailbox
          {reply.text ? <>, under the subject “{reply.text}”</> : null}.
        </p>
      ) : reply.kind === 'reply' || theirs(reply) ? (
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
      {failed(reply) && !reply.dismissed && mayRetry ? (
        <form method="post" onSubmit={onSettle} className="mt-2 flex flex-wrap gap-2">
          <input type="hidden" name="id" value={submissionId} />
          <input type="hidden" name="replyId" value={reply.id} />
          <button
            type="submit"
            name="intent"
            value="retry-reply"
            disabled={busy}
            aria-label={`Try again: ${mailName(reply, zone)}`}
            className={buttonStyle}
          >
            Try again
          </button>
          <button
            type="submit"
            name="intent"
            value="dismiss-reply"
            disabled={busy}
            aria-label={`Dismiss: ${mailName(reply, zone)}`}
            className={buttonStyle}
          >
            Dismiss
          </button>
        </form>
      ) : null}
    </li>
  )
}

/**
 * What the farm sent the visitor and what came back: each mail with its time and delivery, a
 * failed one with 'Try again' and 'Dismiss'.
 */
export function MailsWithThem({
  submission,
  mayRetry,
  busy,
  settle,
}: {
  submission: Submission
  mayRetry: boolean
  busy: boolean
  settle: (replyId: number, action: 'retry' | 'dismiss') => Promise<boolean>
}) {
  function settleFailed(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const replyId = Number(new FormData(event.currentTarget).get('replyId'))
    const action =
      submitter?.value === 'dismiss-reply' ? 'dismiss' : submitter?.value === 'retry-reply' ? 'retry' : null
    if (!action) return
    event.preventDefault()
    void settle(replyId, action)
  }

  if (submission.replies.length === 0) return null
  const earlier = submission.replyCount - submission.replies.length
  return (
    <div className="border-t border-stone-200 pt-3">
      <h3 className="sr-only">Mails with {submission.name}</h3>
      {earlier > 0 ? (
        <p className="mb-2 text-sm text-stone-600">
          {earlier === 1 ? '1 earlier mail' : `${earlier} earlier mails`} not shown.
        </p>
      ) : null}
      <ol className="space-y-3">
        {submission.replies.map((reply, index) => (
          <ThreadMail
            key={reply.id}
            reply={reply}
            newest={index === submission.replies.length - 1}
            submissionId={submission.id}
            mayRetry={mayRetry}
            busy={busy}
            onSettle={settleFailed}
          />
        ))}
      </ol>
    </div>
  )
}
