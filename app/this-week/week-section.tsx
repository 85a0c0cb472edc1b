import type { Availability } from '#app/data/enums'
import { useMessages } from '#app/language/use-messages'
import { TellMeForm } from './tell-me-form'

const availabilityTone: Record<Availability, string> = {
  available: 'text-green-800',
  'few-left': 'text-amber-900',
  'coming-soon': 'text-amber-900',
  'sold-out': 'text-stone-600',
  'out-of-season': 'text-stone-600',
}

/** This week's list as the home page shows it: its words said by the page's loader, in its language (weekIn). */
export interface WeekShown {
  /** Whether visitors may ask to be told (the updates are on: their confirm mail and links). */
  asking: boolean
  updated: { at: number; words: string } | null
  items: Array<{
    product: string
    name: string
    availability: Availability
    /** How it is for sale: 'Available now', 'Coming soon, from the week of 6 June'. */
    said: string
    /** '€4 a dozen', or '' without a price. */
    price: string
    note: string
    mayAsk: boolean
  }>
}

/**
 * The home page's 'This week at the farm': each product, how it is for sale, its price, and 'Tell
 * me when it's ready', in the words its loader said (weekIn).
 */
export function WeekSection({ items, updated, asking, formToken }: WeekShown & { formToken: string }) {
  const messages = useMessages()
  if (items.length === 0 || updated === null) return null
  return (
    <section id="this-week" aria-labelledby="this-week-title" className="mt-16">
      <h2 id="this-week-title" className="font-serif text-3xl font-bold text-green-900">
        {messages.thisWeekHeading()}
      </h2>
      <p className="mt-2 text-stone-700">
        <time dateTime={new Date(updated.at).toISOString()}>{updated.words}</time>
      </p>
      <ul className="mt-6 grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.product} className="rounded-2xl bg-white/80 p-5 shadow-sm ring-1 ring-stone-200">
            <div className="flex items-baseline justify-between gap-3">
              <h3 className="font-serif text-xl font-bold text-green-900">{item.name}</h3>
              {item.price ? <p className="font-semibold text-stone-900">{item.price}</p> : null}
            </div>
            <p className={`mt-1 text-sm font-semibold ${availabilityTone[item.availability]}`}>{item.said}</p>
            {item.note ? <p className="mt-2 text-stone-700">{item.note}</p> : null}
            {asking && item.mayAsk ? <TellMeForm product={item.product} formToken={formToken} /> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
