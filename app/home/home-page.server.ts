import type { AppLoadContext } from '@remix-run/node'

/** Where the home page's words, lists and photos are read from: what the server built (server/http.ts). */
export interface HomePageSources {
  farm: AppLoadContext['farm']
}

/**
 * Everything the home page shows a visitor, read in this one place: the page renders it and its
 * rendered copy is kept under its hash (decision 043), so whatever is added here is live on the
 * next request without any other wiring. Nothing per request or per person belongs here.
 */
export function readHomePage(sources: HomePageSources) {
  return { farm: sources.farm }
}

export type HomePage = ReturnType<typeof readHomePage>
