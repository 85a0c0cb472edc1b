import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { LinkPage } from '#app/updates/link-page'
import { confirmPageWords } from '#app/updates/link-page-words.server'
import type { LinkAnswer } from '#app/updates/update'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.words.pageTitle ?? '' },
  { name: 'robots', content: 'noindex' },
]

export const headers = pageHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''

/** What the page says for a link, in the language its subscriber was asked in: a status 400 when it does not work. */
function answer(context: LoaderFunctionArgs['context'], found: LinkAnswer | null, done: boolean) {
  const { farm } = context
  const shown = found ?? ({ ok: false, why: 'invalid' } as const)
  const words = confirmPageWords(shown, {
    farm: farm.name,
    farmLanguage: farm.languages[0] ?? 'en',
    done,
    consent: shown.ok ? (context.updates?.subscribers.consentWords(shown.language) ?? '') : '',
  })
  return json({ words, language: words.language }, { status: !found ? 404 : found.ok ? 200 : 400 })
}

/** Shows what they would receive and one button. Opening the link subscribes no one: mail scanners open links. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const desk = context.updates
  return answer(context, desk ? desk.subscribers.lookConfirm(tokenOf(request)) : null, false)
}

/** Their own "Yes, send me updates": the only way a visitor subscribes. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const desk = context.updates
  return answer(context, desk ? await desk.subscribers.confirm(tokenOf(request)) : null, true)
}

export default function ConfirmUpdates() {
  const loaded = useLoaderData<typeof loader>()
  const { words } = useActionData<typeof action>() ?? loaded
  return <LinkPage words={words} />
}
