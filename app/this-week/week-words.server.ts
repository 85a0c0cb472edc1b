import type { Availability } from '#app/data/enums'
import type { ServerMessages } from '#app/language/compiled/messages'
import { dayOfMonth, fullDate, priceIn } from '#app/language/intl'
import type { Language } from '#app/language/languages'
import { capitalised, mayAskToBeTold, type WeekProduct } from './week'
import type { WeekShown } from './week-section'

/** How a product is for sale, in the page's language: 'Available now', 'Coming soon, from the week of 6 June'. */
function availabilityIn(messages: ServerMessages, language: Language, item: WeekProduct): string {
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
function priceWordsIn(messages: ServerMessages, language: Language, { priceCents, unit }: WeekProduct): string {
  if (priceCents === null) return ''
  const price = priceIn(language, priceCents)
  return unit ? messages.priceFor({ price, unit }) : price
}

/**
 * This week's list as the home page shows it, said by its loader in the page's language: each
 * product's name, how it is for sale and its price are words from data, so neither these messages
 * nor the dates and prices' Intl reach the browser.
 */
export function weekIn(
  week: { items: WeekProduct[]; changedAt: number | null; asking: boolean },
  messages: ServerMessages,
  language: Language,
  zone: string,
): WeekShown {
  return {
    asking: week.asking,
    updated:
      week.changedAt === null
        ? null
        : { at: week.changedAt, words: messages.updatedOn({ date: fullDate(language, week.changedAt, zone) }) },
    items: week.items.map((item) => ({
      product: item.product,
      name: capitalised(item.product),
      availability: item.availability,
      said: availabilityIn(messages, language, item),
      price: priceWordsIn(messages, language, item),
      note: item.note,
      mayAsk: mayAskToBeTold(item.availability),
    })),
  }
}
