import { json, redirect, type AppLoadContext } from '@remix-run/node'
import type Sqlite from 'better-sqlite3'
import { wordsIn } from '#app/farm-page/page-words.server'
import { chosenLanguage } from '#app/language/accept-language.server'
import { catalogs } from '#app/language/catalogs.server'
import { homePathOf, type Language } from '#app/language/languages'
import { weekIn } from '#app/this-week/week-words.server'

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

interface Visit {
  request: Request
  context: AppLoadContext
}

/**
 * GET /: the farm's first language. With several, a browser that asks first for another of them
 * (Accept-Language) is sent to that language's address, so each address is one language that
 * caches and search engines keep apart; `Vary` tells caches the answer at / depends on it.
 */
export function loader({ request, context }: Visit) {
  const { languages } = context.farm
  const [first = 'en'] = languages
  const several = languages.length > 1
  if (several && new URL(request.url).search === '') {
    const chosen = chosenLanguage(request.headers.get('Accept-Language'), languages)
    if (chosen !== first) {
      return redirect(homePathOf(chosen, languages), { status: 302, headers: { Vary: 'Accept-Language' } })
    }
  }
  return json(homePageIn(first, { request, context }), several ? { headers: { Vary: 'Accept-Language' } } : {})
}

/**
 * The home page's data in one of the farm's languages (the server loads every language's messages
 * at start). What it shows only from data (its title, the owner's words or their defaults, this
 * week's list, the thanks after a form posted without JavaScript) is said here, in that language:
 * those messages, and the Intl they take, never reach the browser.
 */
export function homePageIn(language: Language, { request, context }: Visit) {
  const messages = catalogs[language]
  const home = context.homePage()
  const sent = new URL(request.url).searchParams.has('sent')
  return {
    ...home,
    page: { ...home.page, words: wordsIn(home.page.words, messages) },
    week: weekIn(home.week, messages, language, home.farm.timeZone),
    language,
    title: messages.pageTitle({ farm: home.farm.name }),
    description: messages.pageDescription(),
    sentMessage: sent ? messages.thankYou() : null,
    formToken: context.spamTraps.issueToken(),
  }
}
