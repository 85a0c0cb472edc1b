import { useFetcher } from '@remix-run/react'
import { longDate } from '#app/clock/dates'
import type { Availability } from '#app/data/enums'
import { spamTrapFields } from '#app/submissions/contact-fields'
import { availabilityWords, capitalised, mayAskToBeTold, priceWords, weekOfWords, type WeekProduct } from './week'

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

const availabilityTone: Record<Availability, string> = {
  available: 'text-green-800',
  'few-left': 'text-amber-900',
  'coming-soon': 'text-amber-900',
  'sold-out': 'text-stone-600',
  'out-of-season': 'text-stone-600',
}

/** What the tell-me form answers, with or without JavaScript. */
export type TellMeAnswer = { ok: true; said: string } | { ok: false; error: string }

/** The home page's 'This week at the farm': each product, how it is for sale, its price, and 'Tell me when it's ready'. */
export function WeekSection({
  items,
  changedAt,
  timeZone,
  formToken,
  asking,
}: {
  items: WeekProduct[]
  changedAt: number | null
  timeZone: string
  formToken: string
  /** Whether visitors may ask to be told (the updates are on: their confirm mail and links). */
  asking: boolean
}) {
  if (items.length === 0 || changedAt === null) return null
  return (
    <section id="this-week" aria-labelledby="this-week-title" className="mt-16">
      <h2 id="this-week-title" className="font-serif text-3xl font-bold text-green-900">
        This week at the farm
      </h2>
      <p className="mt-2 text-stone-700">
        Updated <time dateTime={new Date(changedAt).toISOString()}>{longDate(changedAt, timeZone)}</time>
      </p>
      <ul className="mt-6 grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.product} className="rounded-2xl bg-white/80 p-5 shadow-sm ring-1 ring-stone-200">
            <div className="flex items-baseline justify-between gap-3">
              <h3 className="font-serif text-xl font-bold text-green-900">{capitalised(item.product)}</h3>
              {priceWords(item) ? <p className="font-semibold text-stone-900">{priceWords(item)}</p> : null}
            </div>
            <p className={`mt-1 text-sm font-semibold ${availabilityTone[item.availability]}`}>
              {availabilityWords[item.availability]}
              {item.availability === 'coming-soon' && item.readyFrom ? `, ${weekOfWords(item.readyFrom)}` : ''}
            </p>
            {item.note ? <p className="mt-2 text-stone-700">{item.note}</p> : null}
            {asking && mayAskToBeTold(item.availability) ? (
              <TellMeForm product={item.product} formToken={formToken} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Name and address, to be told when it is ready; a lead of its own, confirmed by mail like the form's. */
export function TellMeForm({
  product,
  formToken,
  open = false,
}: {
  product: string
  formToken: string
  open?: boolean
}) {
  const fetcher = useFetcher<TellMeAnswer>()
  const answer = fetcher.data
  const id = `tell-${product.replace(/[^a-z0-9]+/gi, '-')}`
  if (answer?.ok)
    return (
      <p role="status" className="mt-3 font-semibold text-green-800">
        {answer.said}
      </p>
    )
  return (
    <details className="mt-3" open={open || (answer !== undefined && !answer.ok)}>
      <summary className="cursor-pointer font-semibold text-green-800 underline underline-offset-4">
        Tell me when it’s ready
      </summary>
      <fetcher.Form method="post" action="/this-week/tell-me" className="mt-3 space-y-3">
        <input type="hidden" name="product" value={product} />
        <input type="hidden" name={spamTrapFields.startedAt} value={formToken} />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} name={spamTrapFields.honeypot} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <label className="block text-sm font-semibold text-stone-800">
          Your name
          <input name="name" required maxLength={100} autoComplete="name" className={`mt-1 ${fieldStyle}`} />
        </label>
        <label className="block text-sm font-semibold text-stone-800">
          Your email
          <input
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            className={`mt-1 ${fieldStyle}`}
          />
        </label>
        {answer && !answer.ok ? (
          <p role="alert" className="text-sm font-semibold text-red-800">
            {answer.error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={fetcher.state !== 'idle'}
          className="rounded-full bg-green-800 px-5 py-2 font-semibold text-white hover:bg-green-900 disabled:opacity-60"
        >
          Tell me
        </button>
      </fetcher.Form>
    </details>
  )
}
