import { Form, Link, useSubmit } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { intents } from '#app/analysis/analysis'
import { intentWords } from '#app/analysis/intent-words'
import type { TagCount } from '#app/leads/lead'
import { longestSearch, viewParams, type InboxView } from './inbox-query'

const typingPauseMs = 300

const fieldStyle =
  'w-full min-w-0 rounded-xl border border-stone-300 bg-white px-3 py-2 text-base font-normal focus:ring-2 focus:ring-green-700 focus:outline-none'

/**
 * Search and filters as a plain GET form: it works without JavaScript, and with it the list
 * follows each change (typing after a pause) while the address keeps the view.
 */
export function InboxFilters({
  view,
  counts,
  mayBackUp,
}: {
  view: InboxView
  counts: TagCount[]
  /** A signed-in owner: the whole site's backup is theirs to download. */
  mayBackUp: boolean
}) {
  const submit = useSubmit()
  const typing = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(typing.current), [])
  const count = (kind: TagCount['kind'], value: string) =>
    counts.find((tag) => tag.kind === kind && tag.value === value)?.count ?? 0
  // As the server lists them: those some submission carries, the most asked about first, and
  // the one this view filters by even when none does any longer.
  const products: Array<Pick<TagCount, 'value' | 'count'>> = counts
    .filter((tag) => tag.kind === 'product' && tag.count > 0)
    .sort((a, b) => b.count - a.count)
  if (view.product && !products.some((tag) => tag.value === view.product)) {
    products.push({ value: view.product, count: 0 })
  }

  const active = [view.q, view.intent, view.product, view.urgency, view.status].filter(Boolean).length

  return (
    // On a phone the leads come first: the form folds behind one control that says how many
    // filters are on; from 640 px it is always open (see .search-and-filter in tailwind.css).
    <details className="search-and-filter group mt-6 sm:mt-8">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-2xl bg-white/80 px-4 py-3 font-semibold text-green-900 shadow-sm ring-1 ring-stone-200 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="transition-transform group-open:rotate-90">
          ›
        </span>
        Search and filter
        {active > 0 ? (
          <span className="ml-auto rounded-full bg-green-800 px-2.5 py-0.5 text-sm text-white"> {active} active</span>
        ) : null}
      </summary>
      <Form
        method="get"
        action="/farm-sales"
        role="search"
        aria-label="Search and filter leads"
        className="mt-2 grid grid-cols-2 gap-3 rounded-2xl bg-white/80 p-4 shadow-sm ring-1 ring-stone-200 sm:mt-0 lg:grid-cols-4"
        onChange={(event) => {
          const form = event.currentTarget
          clearTimeout(typing.current)
          const wait = event.target instanceof HTMLInputElement && event.target.type === 'search' ? typingPauseMs : 0
          typing.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), wait)
        }}
      >
        <label className="col-span-2 flex flex-col gap-1 text-sm font-semibold text-stone-800 lg:col-span-4">
          Search
          <input
            type="search"
            name="q"
            defaultValue={view.q ?? ''}
            maxLength={longestSearch}
            placeholder="Name, email or words"
            className={fieldStyle}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold text-stone-800">
          What about
          <select name="intent" defaultValue={view.intent ?? ''} className={fieldStyle}>
            <option value="">Everything</option>
            {intents.map((intent) => (
              <option key={intent} value={intent}>
                {intentWords[intent].filter} {count('intent', intent)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold text-stone-800">
          Product
          <select name="product" defaultValue={view.product ?? ''} className={fieldStyle}>
            <option value="">Any product</option>
            {products.map((tag) => (
              <option key={tag.value} value={tag.value}>
                {tag.value} {tag.count}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold text-stone-800">
          Urgency
          <select name="urgency" defaultValue={view.urgency ?? ''} className={fieldStyle}>
            <option value="">Any</option>
            <option value="high">Urgent {count('urgency', 'high')}</option>
            <option value="normal">Not urgent {count('urgency', 'normal')}</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold text-stone-800">
          Status
          <select name="status" defaultValue={view.status ?? ''} className={fieldStyle}>
            <option value="">All</option>
            <option value="new">New {count('status', 'new')}</option>
            <option value="handled">Handled {count('status', 'handled')}</option>
          </select>
        </label>
        {view.spam ? <input type="hidden" name="spam" value="true" /> : null}
        <div className="col-span-2 flex flex-wrap items-center gap-3 lg:col-span-4">
          <button
            type="submit"
            className="rounded-xl bg-green-800 px-5 py-2 font-semibold text-white shadow hover:bg-green-900"
          >
            Show
          </button>
          <Link to="/farm-sales" className="font-semibold text-green-800 underline">
            Clear
          </Link>
          <span className="ml-auto flex flex-wrap gap-x-4 gap-y-1">
            {/* A plain link: the browser downloads the file instead of the app routing to it. */}
            <a
              href={`/api/submissions.csv?${viewParams(view)}`}
              download
              className="font-semibold text-green-800 underline"
            >
              Download these leads (CSV)
            </a>
            {mayBackUp ? (
              <a href="/api/backup" download className="font-semibold text-green-800 underline">
                Download a backup of everything
              </a>
            ) : null}
            <Link
              to={view.spam ? '/farm-sales' : '/farm-sales?spam=true'}
              className="font-semibold text-stone-700 underline"
            >
              {view.spam ? 'Back to the inbox' : 'Spam folder'}
            </Link>
          </span>
        </div>
      </Form>
    </details>
  )
}
