import type { LocalBusiness, OpeningHoursSpecification, WithContext } from 'schema-dts'
import { longWeekdays } from '#app/clock/dates'
import type { HoursException, OpeningHours } from './opening-hours'
import type { PageWords } from './page-words'

/** What search engines and shared links read of the home page. */
export interface Seo {
  /** PUBLIC_URL's home page: null while no PUBLIC_URL is set, and then no canonical is claimed. */
  canonical: string | null
  siteName: string
  /** The farm as a schema.org LocalBusiness: farmJsonLd's, as the page's data carries it. */
  jsonLd: Record<string, unknown>
}

/** The week and the days that differ as schema.org writes them (a closed day: 00:00 to 00:00). */
function hoursSpecification(hours: OpeningHours, exceptions: HoursException[]): OpeningHoursSpecification[] {
  const week = hours.week.flatMap((span, day): OpeningHoursSpecification[] =>
    span
      ? [
          {
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: `https://schema.org/${longWeekdays[day]!}`,
            opens: span.opens,
            closes: span.closes,
          },
        ]
      : [],
  )
  const differing = exceptions.map((exception): OpeningHoursSpecification => ({
    '@type': 'OpeningHoursSpecification',
    validFrom: exception.from,
    validThrough: exception.to,
    opens: exception.hours?.opens ?? '00:00',
    closes: exception.hours?.closes ?? '00:00',
  }))
  return [...week, ...differing]
}

/** The farm as a schema.org LocalBusiness (schema.org has no Farm): only what the page shows too. */
export function farmJsonLd({
  words,
  farm,
  canonical,
  exceptions,
}: {
  words: PageWords
  farm: { name: string }
  canonical: string | null
  exceptions: HoursException[]
}): WithContext<LocalBusiness> {
  const { address, phone } = words.findUs
  const hours = hoursSpecification(words.hours, exceptions)
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: farm.name,
    description: words.intro,
    ...(canonical ? { url: canonical, '@id': `${canonical}#farm` } : {}),
    ...(address ? { address: { '@type': 'PostalAddress', streetAddress: address.split(/\s*\n\s*/).join(', ') } } : {}),
    ...(phone ? { telephone: phone } : {}),
    ...(hours.length > 0 ? { openingHoursSpecification: hours } : {}),
  }
}

/** What search engines and shared links read of the home page. */
export function seoOf({
  words,
  farm,
  siteUrl,
  exceptions,
}: {
  words: PageWords
  farm: { name: string }
  siteUrl: string | null
  exceptions: HoursException[]
}): Seo {
  const canonical = siteUrl ? `${siteUrl.replace(/\/+$/, '')}/` : null
  return {
    canonical,
    siteName: farm.name,
    jsonLd: farmJsonLd({ words, farm, canonical, exceptions }) as unknown as Record<string, unknown>,
  }
}
