import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import { homeMeta, VisitorHome } from '#app/home/visitor-home'
import { NotFound } from '#app/components/not-found'
import { loadMessages, messagesIn } from '#app/language/use-messages'
import { homePathOf, spokenOr, type Language } from '#app/language/languages'
import { homePageIn } from '#app/home/home-page.server'
import { languageOfHomePath, receiveForm } from '#app/submissions/home-page.server'
import { pageHeaders } from '#app/http/page-headers.server'
import type { StylesheetHandle } from '#app/stylesheet'

// Every address no other route answers: a language's home page (/nl/), else the 404 page.
export const headers = pageHeaders

export const handle: StylesheetHandle = { stylesheet: 'visitor', whenHome: true }

export function loader({ request, context, params }: LoaderFunctionArgs) {
  const language = languageOfHomePath(params['*'], context.farm.languages)
  if (language) return json({ home: homePageIn(language, { request, context }) })
  // /nl, as a person types it, is the Dutch page's address without its slash.
  if (languageOfHomePath(`${params['*']}/`, context.farm.languages)) return redirect(`/${params['*']}/`, 308)
  const notFoundIn = languageOfPath(params['*'], context.farm.languages)
  return json(
    { home: null, language: notFoundIn, homePath: homePathOf(notFoundIn, context.farm.languages) },
    { status: 404 },
  )
}

/** A 404 is in the language its address starts with (/nl/…), else in the farm's first. */
function languageOfPath(splat: string | undefined, farmLanguages: readonly Language[]): Language {
  const [code = ''] = (splat ?? '').split('/')
  return spokenOr(code, farmLanguages)
}

/** A language's home page takes its form posted without JavaScript; any other address has no form. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const language = languageOfHomePath(params['*'], context.farm.languages)
  if (!language) throw new Response(null, { status: 405, statusText: 'Method Not Allowed' })
  return receiveForm(language, { request, context })
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data?.home ? homeMeta(data.home) : [{ title: data ? messagesIn(data.language).notFoundTitle() : 'Page Not Found' }]

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>()
  await loadMessages(data.home ? data.home.language : data.language)
  return data
}

export default function ElsewhereOrNotFound() {
  const data = useLoaderData<typeof loader>()
  return data.home ? <VisitorHome data={data.home} /> : <NotFound home={data.homePath} />
}
