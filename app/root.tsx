import type { AppLoadContext, HeadersFunction, LinksFunction, LoaderFunctionArgs } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { isOfficePath, OfficeMenu } from '#app/owner/office-menu'
import { SiteHeader } from '#app/components/site-header'
import { Toasts } from '#app/components/toasts'
import { useLiveCounts } from '#app/live/live-counts'
import type { TagCount } from '#app/leads/lead'
import { claimNoteMarkup } from '#app/team/claim-note.server'
import { pagePassFor } from '#app/owner/page-pass.server'
import { officePagesFor } from '#app/owner/office-pages.server'
import { useNonce } from './nonce'
import { Stylesheet, stylesheetOf } from './stylesheet'
import { InLanguage, useMessagesOf } from '#app/language/use-messages'
import { homePathOf, isLanguage, type Language } from '#app/language/languages'

// The error page is the root's: a guard's thrown headers (a 405's Allow) must reach it here.
export const headers: HeadersFunction = ({ errorHeaders }) => errorHeaders ?? new Headers()

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  // The inbox, installed on the owner's phone: its name, icons and start page.
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icons/maskable-192.png' },
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  // An open inbox's counts only on the site's own names.
  const pass = await pagePassFor(request, context)
  const mayWatch = pass !== null
  // A plain object (Remix makes it JSON): no value from @remix-run/node, whose empty browser
  // stand-in would be one more script for every page to fetch.
  return {
    farm: context.farm,
    ownerSignedIn: context.owner.required && mayWatch,
    // Only for whoever may read the inbox.
    newSubmissions: mayWatch ? badge(context, () => context.inbox.countNew()) : null,
    failedReplies: mayWatch ? badge(context, () => context.inbox.countFailedReplies()) : null,
    // The owner's menu: for whoever may read the inbox, with what their role opens, and the note on how to claim an
    // unclaimed site.
    office: pass
      ? {
          pages: officePagesFor({ role: pass.who.role, person: pass.who.id !== null }),
          claimNote: claimNoteMarkup(context.team.claimWayFor(request, context.clientAddress)),
        }
      : null,
  }
}

/** A badge in the header: if the count cannot be read, every page still renders without it. */
function badge(context: AppLoadContext, read: () => TagCount): TagCount | null {
  try {
    return read()
  } catch (error) {
    context.log.error({ err: error }, 'could not read a count for the header')
    return null
  }
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  // Follows the live link's counts while the inbox is open.
  const live = useLiveCounts()
  const newSubmissions = live.latest(data?.newSubmissions ?? null)
  const failedReplies = live.latest(data?.failedReplies ?? null)
  const { pathname } = useLocation()
  const officeHere = data?.office && isOfficePath(pathname) ? data.office : null
  const matches = useMatches()
  const stylesheetName = stylesheetOf(matches.at(-1))
  const language = pageLanguage(matches)
  const headerMessages = useMessagesOf(language)
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#166534" />
        <Meta />
        <Stylesheet name={stylesheetName} />
        <Links />
      </head>
      <body className="min-h-screen bg-amber-50 print:min-h-0 font-sans text-stone-800 antialiased">
        <SiteHeader
          farmName={data?.farm.name ?? headerMessages.navHome()}
          messages={headerMessages}
          homePath={data?.farm.languages.includes(language) ? homePathOf(language, data.farm.languages) : '/'}
          ownerSignedIn={data?.ownerSignedIn ?? false}
          newSubmissions={newSubmissions}
          failedReplies={failedReplies}
          office={
            officeHere
              ? {
                  bar: <OfficeMenu pages={officeHere.pages} layout="bar" />,
                  list: <OfficeMenu pages={officeHere.pages} layout="list" />,
                }
              : null
          }
        />
        <div className={officeHere ? 'pt-16 md:pt-28 print:pt-0' : 'pt-16 print:pt-0'}>
          {officeHere?.claimNote ? (
            // The server's own markup (claim-note.server.tsx): the note needs no script of its own.
            <div dangerouslySetInnerHTML={{ __html: officeHere.claimNote }} />
          ) : null}
          {officeHere ? (
            // Without JavaScript the phone's menu cannot open: the owner's pages are one row here instead.
            <noscript>
              <nav aria-label="The farm’s office" className="border-b border-stone-200 bg-white px-2 md:hidden">
                <OfficeMenu pages={officeHere.pages} layout="bar" />
              </nav>
            </noscript>
          ) : null}
          <InLanguage language={language}>{children}</InLanguage>
        </div>
        <Toasts />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        <LiveReload nonce={nonce} />
      </body>
    </html>
  )
}

/** The language the page's deepest route says it is in (a visitor's page); the owner's pages are English. */
function pageLanguage(matches: ReturnType<typeof useMatches>): Language {
  for (const { data } of [...matches].reverse()) {
    if (!data || typeof data !== 'object') continue
    const said = 'home' in data && data.home && typeof data.home === 'object' ? data.home : data
    if ('language' in said && typeof said.language === 'string' && isLanguage(said.language)) return said.language
  }
  return 'en'
}

export default function App() {
  // Tests (and styles) can tell a hydrated page from server-rendered HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  // The live counts go to the pages through the outlet: only the root's bundle holds their store.
  return <Outlet context={useLiveCounts()} />
}

export function ErrorBoundary() {
  const error = useRouteError()
  // A guard's refusal on a page (421, 403) says in its JSON what to do; the page says it too.
  const said = isRouteErrorResponse(error) && typeof error.data?.error === 'string' ? `\n${error.data.error}` : ''
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}${said}`
    : error instanceof Error
      ? error.message
      : String(error)
  // A helper at an owner's door: said plainly, with the way back to the inbox they may work.
  if (isRouteErrorResponse(error) && error.status === 403 && said.includes('Only an owner may')) {
    return (
      <main className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
        <h1 className="font-serif text-3xl font-bold text-green-900">This page is for owners</h1>
        <p role="alert" className="mt-6 text-lg text-stone-800">
          {said.trim()}
        </p>
        <a href="/farm-sales" className="mt-8 inline-block font-semibold text-green-800 underline">
          Back to the inbox
        </a>
      </main>
    )
  }
  return (
    <main className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="font-serif text-3xl font-bold text-green-900">Unexpected Application Error!</h1>
      <pre className="mt-6 whitespace-pre-wrap rounded-xl bg-white p-4 text-left text-sm text-red-800 shadow">
        {text}
      </pre>
      <a href="/" className="mt-8 inline-block font-semibold text-green-800 underline">
        Return to Home
      </a>
    </main>
  )
}
