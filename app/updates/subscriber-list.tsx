import { Form } from '@remix-run/react'
import type { SubscriberStatus } from '#app/data/enums'
import type { Subscriber } from './update'
import { shortDate } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'

const statusWords: Record<SubscriberStatus, string> = {
  subscribed: 'Subscribed',
  asked: 'Asked to confirm',
  unsubscribed: 'Unsubscribed',
  undeliverable: 'Mail refused',
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const quietButton =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'
/** Who is on the list (searchable, one page), the owner's way to add someone who asked in person, and to take someone off. */
export function SubscriberList({
  counts,
  search,
  subscribers,
  noteLimit,
  onPage,
  added,
  problem,
}: {
  counts: Record<SubscriberStatus, number>
  search: string
  subscribers: Subscriber[]
  noteLimit: number
  /** How many the list shows at most. */
  onPage: number
  added: string | null
  problem: string | null
}) {
  const zone = useFarmClock()
  return (
    <section aria-labelledby="subscribers-title" className="mt-12">
      <h2 id="subscribers-title" className="font-serif text-2xl font-bold text-green-900">
        Subscribers
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        {counts.subscribed.toLocaleString('en-GB')} subscribed · {counts.asked.toLocaleString('en-GB')} asked to confirm
        · {counts.unsubscribed.toLocaleString('en-GB')} unsubscribed · {counts.undeliverable.toLocaleString('en-GB')}{' '}
        with mail refused
      </p>
      <details open={Boolean(problem || added)} className="mt-4">
        <summary className="cursor-pointer font-semibold text-green-900">Add someone who asked you in person</summary>
        <Form
          method="post"
          className="mt-3 grid gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:grid-cols-2"
        >
          <div>
            <label htmlFor="add-email" className="mb-1.5 block text-sm font-semibold text-stone-800">
              Email
            </label>
            <input id="add-email" name="email" type="email" required className={fieldStyle} />
          </div>
          <div>
            <label htmlFor="add-name" className="mb-1.5 block text-sm font-semibold text-stone-800">
              Name (optional)
            </label>
            <input id="add-name" name="name" className={fieldStyle} />
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="add-note" className="mb-1.5 block text-sm font-semibold text-stone-800">
              How they asked
            </label>
            <input
              id="add-note"
              name="note"
              required
              maxLength={noteLimit}
              placeholder="e.g. asked at the market stall"
              className={fieldStyle}
            />
          </div>
          {problem ? (
            <p role="alert" className="text-sm font-medium text-red-800 sm:col-span-2">
              {`Not added: ${problem}`}
            </p>
          ) : null}
          {added ? (
            <p role="status" className="text-sm text-green-900 sm:col-span-2">
              {`${added} gets your updates now.`}
            </p>
          ) : null}
          <div className="sm:col-span-2">
            <button type="submit" name="intent" value="add" className={quietButton}>
              Add subscriber
            </button>
          </div>
        </Form>
      </details>
      <Form method="get" className="mt-4 flex gap-2" role="search">
        <label htmlFor="subscriber-search" className="sr-only">
          Search subscribers
        </label>
        <input
          id="subscriber-search"
          name="q"
          type="search"
          defaultValue={search}
          maxLength={100}
          placeholder="Name or address"
          className={fieldStyle}
        />
        <button type="submit" className={quietButton}>
          Search
        </button>
      </Form>
      {subscribers.length === 0 ? (
        <p className="mt-4 text-stone-700">{search ? `No one matches “${search}”.` : 'No one yet.'}</p>
      ) : (
        <ul className="mt-4 divide-y divide-stone-200 rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
          {subscribers.map((subscriber) => (
            <li key={subscriber.id} data-testid="subscriber" className="flex flex-wrap items-start gap-3 px-4 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-semibold break-words text-stone-900">{subscriber.name || subscriber.email}</p>
                <p className="text-sm break-all text-stone-700">{subscriber.email}</p>
                <p className="mt-0.5 text-xs text-stone-600">
                  {subscriber.removedByOwner ? 'Removed by you' : statusWords[subscriber.status]} since{' '}
                  {shortDate(Date.parse(subscriber.since), zone)}
                  {subscriber.addedBy === 'owner' && subscriber.consent
                    ? ` · added by you: “${subscriber.consent}”`
                    : ''}
                </p>
              </div>
              {subscriber.status === 'subscribed' || subscriber.status === 'asked' ? (
                <Form method="post">
                  <input type="hidden" name="id" value={subscriber.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="remove"
                    aria-label={`Remove ${subscriber.email}`}
                    className={quietButton}
                  >
                    Remove
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {subscribers.length === onPage ? (
        <p className="mt-2 text-sm text-stone-600">
          {search
            ? `The first ${onPage} who match; search for more of a name or address.`
            : `The newest ${onPage}; search to find anyone else.`}
        </p>
      ) : null}
    </section>
  )
}
