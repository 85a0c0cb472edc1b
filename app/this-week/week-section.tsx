import type { Availability } from '#app/data/enums'
import type { Messages } from '#app/language/compiled/messages'
import { dayOfMonth, fullDate, priceIn } from '#app/language/intl'
import type { Language } from '#app/language/languages'
import { useMessages, usePageLanguage } from '#app/language/use-messages'
import { TellMeForm } from './tell-me-form'
import { capitalised, mayAskToBeTold, type WeekProduct } from './week'

const availabilityTone: Record<Availability, string> = {
  available: 'text-green-800',
  'few-left': 'text-amber-900',
  'coming-soon': 'text-amber-900',
  'sold-out': 'text-stone-600',
  'out-of-season': 'text-stone-600',
}

/** How a product is for sale, in the page's language: 'Available now', 'Coming soon, from the week of 6 June'. */
function availabilityIn(messages: Messages, language: Language, item: WeekProduct): string {
  const { availability, readyFrom } = item
  if (availability === 'coming-soon' && readyFrom) {
    return messages.comingSoonFrom({ date: dayOfMonth(language, Date.parse(`${readyFrom}T00:00:00Z`) / 86_400_000) })
  }
  const words: Record<Availability, () => string> = {
    available: messages.available,
    'few-left': messages.fewLeft,
    'coming-soon': messages.comingSoon,
    'sold-out': messages.soldOut,
    'out-of-season': messages.outOfSeason,
  }
  return words[availability]()
}

/** '€4 a dozen', '4 € la douzaine', or '' without a price. */
function priceWordsIn(messages: Messages, language: Language, { priceCents, unit }: WeekProduct): string {
  if (priceCents === null) return ''
  const price = priceIn(language, priceCents)
  return unit ? messages.priceFor({ price, unit }) : price
}

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
  const messages = useMessages()
  const language = usePageLanguage()
  if (items.length === 0 || changedAt === null) return null
  return (
    <section id="this-week" aria-labelledby="this-week-title" className="mt-16">
      <h2 id="this-week-title" className="font-serif text-3xl font-bold text-green-900">
        {messages.thisWeekHeading()}
      </h2>
      <p className="mt-2 text-stone-700">
        <time dateTime={new Date(changedAt).toISOString()}>
          {messages.updatedOn({ date: fullDate(language, changedAt, timeZone) })}
        </time>
      </p>
      <ul className="mt-6 grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.product} className="rounded-2xl bg-white/80 p-5 shadow-sm ring-1 ring-stone-200">
            <div className="flex items-baseline justify-between gap-3">
              <h3 className="font-serif text-xl font-bold text-green-900">{capitalised(item.product)}</h3>
              {item.priceCents !== null ? (
                <p className="font-semibold text-stone-900">{priceWordsIn(messages, language, item)}</p>
              ) : null}
            </div>
            <p className={`mt-1 text-sm font-semibold ${availabilityTone[item.availability]}`}>
              {availabilityIn(messages, language, item)}
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
