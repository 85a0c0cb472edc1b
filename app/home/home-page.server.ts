import type { AppLoadContext } from '@remix-run/node'
import type Sqlite from 'better-sqlite3'

/** Where the home page's words, lists and photos are read from: what the server built (server/http.ts). */
export interface HomePageSources {
  farm: AppLoadContext['farm']
  farmPage: Pick<AppLoadContext['farmPage'], 'forVisitors'>
  week: Pick<AppLoadContext['week'], 'list' | 'offers'>
  photos: Pick<AppLoadContext['photos'], 'shown'>
  /** Whether a visitor may ask to be told when a product is ready: only while the updates are on. */
  asking: boolean
  /** PUBLIC_URL, for the page's canonical address and structured data. */
  siteUrl: string | null
}

/**
 * Everything the home page shows a visitor, read in this one place: the page renders it and its
 * rendered copy is kept under its hash (decision 043), so whatever is added here is live on the
 * next request without any other wiring. Nothing per request or per person belongs here.
 */
export function readHomePage({ farm, farmPage, week, photos, asking, siteUrl }: HomePageSources) {
  // The opening line ('Open now until 18:00') is read at the request's time: when it changes, so does the key.
  const page = farmPage.forVisitors(farm, siteUrl)
  const list = week.list.shown()
  // What is for sale this week, with its price, is what the farm offers (schema.org makesOffer).
  const offers = week.offers(list.items, siteUrl ?? '')
  return {
    farm,
    page:
      offers.length > 0 ? { ...page, seo: { ...page.seo, jsonLd: { ...page.seo.jsonLd, makesOffer: offers } } } : page,
    photos: photos.shown(),
    week: { items: list.items, changedAt: list.changedAt?.getTime() ?? null, asking },
  }
}

export type HomePage = ReturnType<typeof readHomePage>

/**
 * readHomePage, read again only when the database has had a write (on this connection or another)
 * or the minute has turned (the opening line, the exceptions ahead), or the farm's name, product or
 * clock differ: most requests compare a few numbers instead of reading and checking the page's words.
 */
export function latestHomePage(sqlite: Sqlite.Database, now = Date.now) {
  const changes = sqlite.prepare('SELECT total_changes()').pluck()
  const commitsElsewhere = sqlite.prepare('PRAGMA data_version').pluck()
  let last: { stamp: string; page: HomePage } | null = null
  return (sources: HomePageSources): HomePage => {
    const { name, product, timeZone, languages } = sources.farm
    const minute = Math.floor(now() / 60_000)
    const stamp = JSON.stringify([
      changes.get(),
      commitsElsewhere.get(),
      minute,
      name,
      product,
      timeZone,
      languages,
      sources.asking,
      sources.siteUrl,
    ])
    if (last?.stamp !== stamp) last = { stamp, page: readHomePage(sources) }
    return last.page
  }
}
