import type { AppLoadContext } from '@remix-run/node'

/** Where the home page's words, lists and photos are read from: what the server built (server/http.ts). */
export interface HomePageSources {
  farm: AppLoadContext['farm']
  farmPage: Pick<AppLoadContext['farmPage'], 'forVisitors'>
  /** PUBLIC_URL, for the page's canonical address and structured data. */
  siteUrl: string | null
}

/**
 * Everything the home page shows a visitor, read in this one place: the page renders it and its
 * rendered copy is kept under its hash (decision 043), so whatever is added here is live on the
 * next request without any other wiring. Nothing per request or per person belongs here.
 */
export function readHomePage({ farm, farmPage, siteUrl }: HomePageSources) {
  // The opening line ('Open now until 18:00') is read at the request's time: when it changes, so does the key.
  return { farm, page: farmPage.forVisitors(farm, siteUrl) }
}

export type HomePage = ReturnType<typeof readHomePage>
