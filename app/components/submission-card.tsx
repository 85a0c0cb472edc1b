import { useEffect, useRef } from 'react'
import { useFetcher } from '@remix-run/react'
import { enter, enteringStyle } from '~/components/card-entrance'
import { ArrivalTime } from '~/components/arrival-time'
import type { Analysis } from '~/submissions/analysis/analysis'
import { mailtoHref } from '~/submissions/contact-fields'
import type { Submission } from '~/submissions/submission'

export function SubmissionCard({ submission, delaySeconds }: { submission: Submission; delaySeconds: number }) {
  const fetcher = useFetcher()
  // Shown as asked at once; the live update (or the reload without JavaScript) confirms it.
  const asked = fetcher.formData
  const status =
    asked?.get('status') === 'handled' || asked?.get('status') === 'new' ? asked.get('status') : submission.status
  const spam = asked?.get('spam') === 'false' ? null : submission.spam
  const card = useRef<HTMLLIElement>(null)
  // Once, when the card first mounts; its delay at that moment is its place in the stagger.
  const delay = useRef(delaySeconds)
  useEffect(() => void enter(card.current!, delay.current), [])
  return (
    <li
      ref={card}
      className="submission-card rounded-2xl bg-white p-6 shadow-sm ring-1 ring-stone-200"
      id={`submission-${submission.id}`}
      data-testid="submission-card"
      style={enteringStyle}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="font-serif text-xl font-bold break-words text-green-900">{submission.name}</h2>
        <a href={mailtoHref(submission.email)} className="text-sm font-medium break-all text-green-800 underline">
          {submission.email}
        </a>
      </div>
      <ArrivalTime iso={submission.createdAt} />
      <p className="mt-3 leading-relaxed break-words whitespace-pre-wrap text-stone-800">{submission.message}</p>
      {submission.aiResponse ? (
        <div className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200">
          <h3 className="text-xs font-bold tracking-widest text-amber-900 uppercase">AI Analysis</h3>
          <p className="mt-1.5 text-sm leading-relaxed text-stone-800">{submission.aiResponse}</p>
          {submission.analysis ? <AnalysisTags analysis={submission.analysis} /> : null}
        </div>
      ) : null}
      <fetcher.Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="id" value={submission.id} />
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${status === 'new' ? 'bg-amber-200 text-amber-950' : 'bg-stone-100 text-stone-700'}`}
        >
          {status === 'new' ? 'New' : 'Handled'}
        </span>
        {spam ? (
          <button type="submit" name="spam" value="false" className={actionStyle}>
            Not spam
          </button>
        ) : (
          <button type="submit" name="status" value={status === 'new' ? 'handled' : 'new'} className={actionStyle}>
            {status === 'new' ? 'Mark handled' : 'Mark as new'}
          </button>
        )}
      </fetcher.Form>
    </li>
  )
}

const actionStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

const tagStyles = {
  urgent: 'bg-red-100 text-red-900',
  spam: 'bg-stone-200 text-stone-800',
  intent: 'bg-green-100 text-green-900',
  product: 'bg-white text-amber-900 ring-1 ring-amber-300',
}

function label(intent: string) {
  const words = intent.replace('_', ' ')
  return words[0]!.toUpperCase() + words.slice(1)
}

/** What the owner sorts by at a glance: urgent first, spam flagged, then what and which products. */
function AnalysisTags({ analysis }: { analysis: Analysis }) {
  const tags: Array<{ text: string; style: keyof typeof tagStyles }> = [
    ...(analysis.urgency.level === 'high' ? [{ text: 'Urgent', style: 'urgent' as const }] : []),
    ...(analysis.spam.isSpam ? [{ text: 'Likely spam', style: 'spam' as const }] : []),
    ...analysis.intents.map((intent) => ({ text: label(intent), style: 'intent' as const })),
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
