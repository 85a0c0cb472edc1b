import type { MetaFunction } from '@remix-run/node'
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useOutletContext,
  useRevalidator,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, useMemo } from 'react'
import { InboxFilters } from '#app/inbox/inbox-filters'
import { SetUpNotes } from '#app/inbox/set-up-notes'
import type { action, loader } from '#app/inbox/inbox-page.server'
import { apiPageSizes, pageParams, type InboxPage, type InboxView } from '#app/inbox/inbox-query'
import { SubmissionCard } from '#app/inbox/submission-card'
import { useInbox } from '#app/inbox/use-inbox'
import { useNewLeadAlert } from '#app/inbox/use-new-lead-alert'
import { useOlderPages } from '#app/inbox/use-older-pages'
import { EmptySpamFolder } from '#app/lifecycle/data-actions'
import type { LiveCounts } from '#app/live/live-counts'
import { PhoneNotifications } from '#app/push/phone-notifications'
import type { Answering, ReplyProblem } from '#app/replies/conversation'
import type { OrderAnswer, Ordering } from '#app/orders/order-answer'
import type { loader as rootLoader } from '#app/root'
import type { Submission, TagCount } from '#app/leads/lead'
import { zoneWords } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { WhoYouAre } from '#app/team/who-you-are'
import type { StylesheetHandle } from '#app/stylesheet'

// The page's server half (its loader, action and headers) lives beside the inbox's other server
// code; the route keeps only what the browser runs, so the page loads no shared empty modules.
export { action, headers, loader } from '#app/inbox/inbox-page.server'

export const handle: StylesheetHandle = { stylesheet: 'inbox' }

export const meta: MetaFunction = () => [
  { title: 'Farm Sales Data' },
  { name: 'description', content: 'Every customer submission, newest first, with AI-powered insights.' },
  { name: 'robots', content: 'noindex' },
]

/** The spec's 100 ms per card, up to the eighth: the whole first page is in by 1.15 s. */
const staggerSeconds = 0.1
const mostStaggered = 8

function isFiltered(view: InboxView) {
  return Boolean(view.q || view.intent || view.product || view.urgency || view.status)
}

export default function FarmSales() {
  const {
    badQuery,
    loadFailed,
    page,
    counts: loadedCounts,
    phone,
    keeping,
    setUp,
    cannotReply,
    claimed,
    askWhoYouAre,
  } = useLoaderData<typeof loader>()
  const live = useOutletContext<LiveCounts>()
  const counts = useMemo(() => live.laidOver(loadedCounts), [live, loadedCounts])
  const newSubmissions = live.latest(useRouteLoaderData<typeof rootLoader>('root')?.newSubmissions ?? null)
  const leadAlert = useNewLeadAlert()
  const location = useLocation()
  const answer = useActionData<typeof action>()
  const replyProblem = answer && 'replyProblem' in answer ? answer.replyProblem : null
  const orderAnswer = answer && 'orderAnswer' in answer ? answer.orderAnswer : null

  useEffect(() => {
    if (loadFailed) console.error('Failed to fetch submissions')
  }, [loadFailed])

  return (
    <main className="mx-auto max-w-4xl px-4 pt-6 pb-20 sm:px-6 sm:pt-12">
      <h1 className="font-serif text-3xl font-bold text-green-900 sm:text-4xl">Farm Sales Data</h1>
      <p className="mt-2 text-stone-700 sm:mt-3 sm:text-lg">Review customer submissions and AI-powered insights.</p>
      {askWhoYouAre ? (
        // On a phone one line, so the first lead stays in the first screen; the form is a tap away.
        <>
          <p className="mt-3 rounded-xl bg-white px-4 py-2 text-sm ring-1 ring-green-200 sm:hidden">
            <Link to="/farm-sales/welcome" className="font-semibold text-green-800 underline">
              Welcome: tell us who you are
            </Link>
          </p>
          <div className="hidden sm:block">
            <WhoYouAre then="/farm-sales" name="" problem={null} busy={false} later={null} />
          </div>
        </>
      ) : null}
      {/* At least a button's height from the first paint: what it holds is known only in the browser. */}
      <div className="mt-3 flex min-h-9 items-center">
        {phone.publicKey ? (
          <PhoneNotifications publicKey={phone.publicKey} />
        ) : leadAlert.notify === 'ask' ? (
          <button
            type="button"
            onClick={() => void leadAlert.askToNotify()}
            className="rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50"
          >
            Notify me
          </button>
        ) : leadAlert.notify === 'on' ? (
          <p className="text-sm text-stone-700">Notifications on for new leads</p>
        ) : null}
      </div>
      {/* With the settings open, the set-up notes below say what the phone still needs. */}
      {phone.cannot && claimed && !setUp.settings ? (
        <p className="mt-1 text-sm text-stone-600">{phone.cannot}</p>
      ) : null}
      <SetUpNotes setUp={setUp} cannotReply={claimed ? cannotReply : null} />
      {newSubmissions ? (
        <p className="mt-2 font-semibold text-amber-900" data-testid="new-count">
          {newSubmissions === 1 ? '1 new lead to deal with' : `${newSubmissions} new leads to deal with`}
        </p>
      ) : null}
      {badQuery ? (
        <div role="alert" className="mt-10 rounded-2xl bg-red-50 px-6 py-5 text-red-900 ring-1 ring-red-200">
          <p className="font-semibold">This view’s address is not right: {badQuery}</p>
          <Link to="/farm-sales" className="mt-2 inline-block font-semibold underline">
            Show the whole inbox
          </Link>
        </div>
      ) : page ? (
        <>
          <InboxFilters view={page.view} counts={counts} mayBackUp={keeping.can} />
          {/* A new view starts a new list: its own pages, arrivals and live link. */}
          <Inbox
            key={location.search}
            view={page.view}
            firstPage={page.submissions}
            next={page.next}
            readAt={page.readAt}
            answering={page.answering}
            ordering={page.ordering}
            orderAnswer={orderAnswer}
            replyProblem={replyProblem}
            onNewSubmission={leadAlert.arrived}
            onCounts={live.moved}
            canKeepData={keeping.can}
          />
        </>
      ) : (
        <EmptyState filtered={false} />
      )}
    </main>
  )
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="mt-10 rounded-2xl border-2 border-dashed border-stone-300 bg-white/60 px-6 py-14 text-center">
      {filtered ? (
        <>
          <p className="font-serif text-xl font-bold text-green-900">No leads match this view.</p>
          <Link to="/farm-sales" className="mt-2 inline-block font-semibold text-green-800 underline">
            Clear search and filters
          </Link>
        </>
      ) : (
        <>
          <p className="font-serif text-xl font-bold text-green-900">No submissions yet.</p>
          <p className="mt-2 text-stone-700">Submissions will appear here once customers fill out the contact form.</p>
        </>
      )}
    </div>
  )
}

function Inbox({
  view,
  firstPage,
  next,
  readAt,
  answering,
  ordering,
  orderAnswer,
  replyProblem,
  onNewSubmission,
  onCounts,
  canKeepData,
}: {
  view: InboxPage
  firstPage: Submission[]
  /** Where the next older page starts; null when the loaded page was the last. */
  next: number | null
  /** When the server read the page, on the clock that stamps live changes. */
  readAt: number
  answering: Answering
  ordering: Ordering
  orderAnswer: OrderAnswer | null
  replyProblem: ReplyProblem | null
  onNewSubmission: (submission: Submission) => void
  onCounts: (counts: TagCount[]) => void
  /** Whether the owner may delete cards and forget people here (signed in, with OWNER_PASSWORD). */
  canKeepData: boolean
}) {
  const { submissions, notInView, addOlder, changedTo, remove, reconnections } = useInbox({
    firstPage,
    next,
    readAt,
    view,
    onNewSubmission,
    onCounts,
  })
  const older = useOlderPages({
    firstUrl: next === null ? null : `/api/submissions?${pageParams({ ...view, limit: apiPageSizes.default }, next)}`,
    onPage: addOlder,
    restarts: reconnections,
  })
  const { revalidate } = useRevalidator()
  const zone = useFarmClock()
  const firstIds = new Set(firstPage.map((submission) => submission.id))
  // Where the next older page starts, as the API's last Link says (a search may skip ahead).
  const nextBefore = older.nextUrl === null ? null : new URLSearchParams(older.nextUrl.split('?')[1]).get('before')
  const olderHref = nextBefore === null ? undefined : `/farm-sales?${pageParams(view, Number(nextBefore))}`

  return (
    <>
      {notInView > 0 ? (
        <p role="status" className="mt-6 rounded-xl bg-green-50 px-4 py-3 text-green-900 ring-1 ring-green-200">
          {notInView === 1 ? '1 new lead' : `${notInView} new leads`} not in this view.{' '}
          <Link to="/farm-sales" className="font-semibold underline">
            Clear search and filters
          </Link>
        </p>
      ) : null}
      {view.spam && canKeepData && submissions.length > 0 ? <EmptySpamFolder onEmptied={revalidate} /> : null}
      {submissions.length === 0 && olderHref && older.state !== 'done' ? (
        // A search with filters looks through a bounded number of matches per page.
        <p className="mt-8 text-center text-stone-700">None of the most recent matches are in this view.</p>
      ) : submissions.length === 0 ? (
        <EmptyState filtered={isFiltered(view) || view.spam} />
      ) : (
        <>
          <p className="mt-8 text-sm text-stone-600" data-testid="times-on">{`Times are ${zoneWords(zone)}.`}</p>
          <ol aria-label="Leads, newest first" className="mt-3 space-y-5">
            {submissions.map((submission, index) => (
              <SubmissionCard
                key={submission.id}
                submission={submission}
                answering={answering}
                replyProblem={replyProblem?.id === submission.id ? replyProblem : null}
                ordering={ordering}
                orderAnswer={orderAnswer?.id === submission.id ? orderAnswer : null}
                onChanged={changedTo}
                onRemoved={canKeepData ? remove : null}
                // Only the loaded page staggers in; cards added later enter at once.
                entrance={
                  firstIds.has(submission.id)
                    ? { withPage: true, delaySeconds: Math.min(index, mostStaggered) * staggerSeconds }
                    : { withPage: false }
                }
              />
            ))}
          </ol>
        </>
      )}
      {older.state !== 'done' && olderHref ? (
        <div className="mt-8 flex flex-col items-center gap-3">
          {older.state === 'loading' ? (
            <p role="status" className="text-stone-700">
              Loading older leads…
            </p>
          ) : null}
          {older.state === 'failed' ? (
            <p role="alert" className="text-red-800">
              Older leads could not be loaded.{' '}
              <button type="button" onClick={() => void older.loadMore()} className="font-semibold underline">
                Retry
              </button>
            </p>
          ) : null}
          <Link
            ref={(element) => {
              older.sentinel.current = element
            }}
            to={olderHref}
            className="rounded-full px-5 py-2 font-semibold text-green-800 ring-1 ring-green-300 hover:bg-green-50"
          >
            Older leads
          </Link>
        </div>
      ) : null}
    </>
  )
}
