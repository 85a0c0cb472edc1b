import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { brokenLink, LinkPage, pageButton } from '#app/updates/link-page'
import type { LinkAnswer } from '#app/updates/update'

export const meta: MetaFunction = () => [{ title: 'Updates by email' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''

/** What the page says for a link: a status 400 when it does not work. */
function answer(farm: string, words: string | null, found: LinkAnswer | null, done: boolean) {
  if (!found) return json({ farm, words, found: { ok: false, why: 'invalid' } as LinkAnswer, done }, { status: 404 })
  return json({ farm, words, found, done }, { status: found.ok ? 200 : 400 })
}

/** Shows what they would receive and one button. Opening the link subscribes no one: mail scanners open links. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const desk = context.updates
  if (!desk) return answer(context.farm.name, null, null, false)
  return answer(context.farm.name, desk.subscribers.consentWords, desk.subscribers.lookConfirm(tokenOf(request)), false)
}

/** Their own "Yes, send me updates": the only way a visitor subscribes. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const desk = context.updates
  if (!desk) return answer(context.farm.name, null, null, false)
  return answer(
    context.farm.name,
    desk.subscribers.consentWords,
    await desk.subscribers.confirm(tokenOf(request)),
    true,
  )
}

export default function ConfirmUpdates() {
  const loaded = useLoaderData<typeof loader>()
  const { farm, words, found, done } = useActionData<typeof action>() ?? loaded
  if (!found.ok) {
    return (
      <LinkPage title={brokenLink[found.why].title}>
        <p className="mt-4 text-stone-700">{brokenLink[found.why].text}</p>
      </LinkPage>
    )
  }
  if (done || found.status === 'subscribed') {
    return (
      <LinkPage title="You are subscribed">
        <p className="mt-4 text-stone-700" role="status">
          Thank you. {found.email} will get {farm}’s updates. Each one has a link to unsubscribe in one click.
        </p>
      </LinkPage>
    )
  }
  return (
    <LinkPage title={`Updates from ${farm}`}>
      <p className="mt-4 text-stone-700">
        Would you like {farm}’s updates at <strong className="break-all">{found.email}</strong>? By pressing the button
        you say:
      </p>
      <blockquote className="mt-4 rounded-2xl bg-green-50 px-5 py-4 text-green-950 ring-1 ring-green-200">
        {words}
      </blockquote>
      <Form method="post">
        <button type="submit" className={pageButton}>
          Yes, send me updates
        </button>
      </Form>
      <p className="mt-4 text-sm text-stone-600">If you do not want them, close this page: you will get none.</p>
    </LinkPage>
  )
}
