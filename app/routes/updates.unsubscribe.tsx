import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { LinkPage } from '#app/updates/link-page'
import { unsubscribePageWords } from '#app/updates/link-page-words.server'
import type { LinkAnswer } from '#app/updates/update'
import { testToken } from '#app/updates/update-requests.server'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.words.pageTitle ?? '' },
  { name: 'robots', content: 'noindex' },
]

export const headers = pageHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''

/** The page in the language its subscriber was asked in: a status 400 when the link does not work. */
function answer(
  context: LoaderFunctionArgs['context'],
  found: LinkAnswer | 'test',
  did: 'unsubscribed' | 'undone' | null,
) {
  const { farm } = context
  const words = unsubscribePageWords(found, { farm: farm.name, farmLanguage: farm.languages[0] ?? 'en', did })
  const works = found === 'test' || found.ok
  return json({ words, language: words.language }, { status: works ? 200 : 400 })
}

/** A page with one button; opening the link changes nothing. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const token = tokenOf(request)
  // Links in mails sent while updates were on keep working after they are turned off.
  return answer(context, token === testToken ? 'test' : context.subscribers.lookUnsubscribe(token), null)
}

/**
 * The one-click POST from a mail program (RFC 8058: body `List-Unsubscribe=One-Click`, no cookie,
 * no sign-in) and the page's button both unsubscribe at once; only `intent=undo`, the page's own
 * Undo button, subscribes them again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const token = tokenOf(request)
  if (token === testToken) return answer(context, 'test', null)
  const { subscribers } = context
  const form = await request.formData().catch(() => new FormData())
  const undo = form.get('intent') === 'undo'
  const found = undo ? await subscribers.undo(token) : await subscribers.unsubscribe(token)
  return answer(context, found, undo ? 'undone' : 'unsubscribed')
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>()
  const { words } = useActionData<typeof action>() ?? loaded
  return <LinkPage words={words} />
}
