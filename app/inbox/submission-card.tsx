import { absoluteTime } from '#app/leads/when-arrived'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { useEffect, useRef, useState, type CSSProperties, type FormEvent } from 'react'
import type { Analysis } from '#app/analysis/analysis'
import { intentWords } from '#app/analysis/intent-words'
import { CardDataActions } from '#app/lifecycle/data-actions'
import { Conversation, type Answering, type ReplyProblem } from '#app/replies/conversation'
import { mailtoHref } from '#app/leads/mailbox'
import type { OrderAnswer, Ordering } from '#app/orders/order-answer'
import { OrderOnCard } from '#app/orders/order-card'
import type { Submission, TagCount } from '#app/leads/lead'
import { ArrivalTime } from './arrival-time'
import { enter, enteringStyle } from './card-entrance'
import { submissionChangeFromForm } from './submission-change'
import { useSubmissionChange } from './use-submission-change'

export function SubmissionCard({
  submission,
  entrance,
  answering,
  replyProblem,
  ordering,
  orderAnswer,
  onChanged,
  onRemoved,
}: {
  submission: Submission
  /**
   * With the page it came in, the card enters by CSS after `delaySeconds`, before any script has
   * run (and without JavaScript); one that arrives later (live, an older page) by framer-motion.
   */
  entrance: { withPage: true; delaySeconds: number } | { withPage: false }
  answering: Answering
  /** A reply to this card the page's action refused (sent without JavaScript). */
  replyProblem: ReplyProblem | null
  /** This week's list and the page's orders: the card's order read, priced, to confirm or decline. */
  ordering: Ordering
  /** The page's answer to this card's order form (sent without JavaScript). */
  orderAnswer: OrderAnswer | null
  /** A change this card made, as the server answered it. */
  onChanged: (submission: Submission, counts: TagCount[]) => void
  /** Cards this one deleted (itself, or its sender's); null when the owner cannot delete (no OWNER_PASSWORD). */
  onRemoved: ((ids: number[]) => void) | null
}) {
  const { asked, problem, change } = useSubmissionChange(submission.id, onChanged)
  const zone = useFarmClock()
  // Shown as asked at once; the answer (or the reload without JavaScript) confirms it.
  const status = asked && 'status' in asked ? asked.status : submission.status
  const spam = asked && 'spam' in asked ? null : submission.spam
  // One change at a time: the buttons wait for the answer to the last one.
  const waiting = asked !== null
  const card = useRef<HTMLLIElement>(null)
  // How it came, kept from its first render: a card the page later counts otherwise (a
  // revalidated first page) must neither enter again nor be left hidden.
  const [came] = useState(() => entrance)
  useEffect(() => {
    if (!came.withPage) void enter(card.current!)
  }, [came])

  // Without JavaScript the form posts to the page's action; with it, the change goes to the API.
  function send(event: FormEvent<HTMLFormElement>) {
    const wanted = submissionChangeFromForm(
      new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter),
    )
    if (!wanted) return
    event.preventDefault()
    void change(wanted)
  }

  return (
    <li
      ref={card}
      className={`submission-card rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200 ${came.withPage ? `card-enter${came.delaySeconds === 0 ? ' at-once' : ''}` : ''}`}
      id={`submission-${submission.id}`}
      data-testid="submission-card"
      style={
        came.withPage
          ? ({ '--enter-delay': `${Math.round(came.delaySeconds * 1000)}ms` } as CSSProperties)
          : enteringStyle
      }
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="font-serif text-xl font-bold break-words text-green-900">{submission.name}</h2>
        <a href={mailtoHref(submission.email)} className="text-sm font-medium break-all text-green-800 underline">
          {submission.email}
        </a>
      </div>
      <ArrivalTime iso={submission.createdAt} />
      {submission.answersUpdate ? (
        <p className="mt-2 text-sm text-stone-700" data-testid="answers-update">
          <a
            href={`/farm-sales/updates#update-${submission.answersUpdate.id}`}
            className="font-medium text-green-800 underline"
          >
            {`Answer to your update “${submission.answersUpdate.subject}”`}
          </a>
        </p>
      ) : null}
      <p className="mt-3 leading-relaxed break-words whitespace-pre-wrap text-stone-800">{submission.message}</p>
      {submission.aiResponse ? (
        <div className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200">
          <h3 className="text-xs font-bold tracking-widest text-amber-900 uppercase">AI Analysis</h3>
          <p className="mt-1.5 text-sm leading-relaxed text-stone-800">{submission.aiResponse}</p>
          {submission.analysis ? <AnalysisTags analysis={submission.analysis} /> : null}
        </div>
      ) : submission.awaitingAnalysis ? (
        <p className="mt-4 rounded-xl bg-stone-50 p-4 text-sm text-stone-700 ring-1 ring-stone-200">
          <span className="font-bold">Not analysed yet.</span> The analysis could not be made in time; it will be tried
          again shortly.
        </p>
      ) : null}
      <OrderOnCard submission={submission} ordering={ordering} answered={orderAnswer} />
      <form method="post" onSubmit={send} className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="id" value={submission.id} />
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${status === 'new' ? 'bg-amber-200 text-amber-950' : 'bg-stone-100 text-stone-700'}`}
        >
          {status === 'new' ? 'New' : 'Handled'}
        </span>
        {spam ? (
          <button type="submit" name="spam" value="false" disabled={waiting} className={actionStyle}>
            Not spam
          </button>
        ) : (
          <button
            type="submit"
            name="status"
            value={status === 'new' ? 'handled' : 'new'}
            disabled={waiting}
            className={actionStyle}
          >
            {status === 'new' ? 'Mark handled' : 'Mark as new'}
          </button>
        )}
      </form>
      {problem ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          Not saved: {problem}
        </p>
      ) : null}
      {submission.history.length > 0 ? (
        <ol aria-label="Who did what" className="mt-2 space-y-0.5 text-xs text-stone-600">
          {submission.history.map((event) => (
            <li key={`${event.at}-${event.change}`} data-testid="lead-event">
              {leadChangeWords[event.change]} by {event.by ?? 'anyone (the inbox was open)'},{' '}
              <time dateTime={event.at}>{absoluteTime(event.at, zone)}</time>
            </li>
          ))}
        </ol>
      ) : null}
      <Conversation submission={submission} answering={answering} problemSent={replyProblem} onChanged={onChanged} />
      {onRemoved ? (
        <CardDataActions id={submission.id} name={submission.name} email={submission.email} onRemoved={onRemoved} />
      ) : null}
    </li>
  )
}

const leadChangeWords = { handled: 'Marked handled', new: 'Marked as new', 'not-spam': 'Taken out of spam' }

const actionStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'

const tagStyles = {
  urgent: 'bg-red-100 text-red-900',
  spam: 'bg-stone-200 text-stone-800',
  intent: 'bg-green-100 text-green-900',
  product: 'bg-white text-amber-900 ring-1 ring-amber-300',
}

/** What the owner sorts by at a glance: urgent first, spam flagged, then what and which products. */
function AnalysisTags({ analysis }: { analysis: Analysis }) {
  const tags: Array<{ text: string; style: keyof typeof tagStyles }> = [
    ...(analysis.urgency.level === 'high' ? [{ text: 'Urgent', style: 'urgent' as const }] : []),
    ...(analysis.spam.isSpam ? [{ text: 'Likely spam', style: 'spam' as const }] : []),
    ...analysis.intents.map((intent) => ({ text: intentWords[intent].tag, style: 'intent' as const })),
    ...analysis.products.map((product) => ({ text: product, style: 'product' as const })),
  ]
  return (
    <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li
          key={`${tag.style}-${tag.text}`}
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${tagStyles[tag.style]}`}
        >
          {tag.text}
        </li>
      ))}
    </ul>
  )
}
