import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { brokenLink, LinkPage, pageButton, quietButton } from '#app/updates/link-page'
import type { LinkAnswer } from '#app/updates/update'
import { testToken } from '#app/updates/update-requests.server'

export const meta: MetaFunction = () => [{ title: 'Unsubscribe' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''

type Shown = { farm: string; found: LinkAnswer | 'test'; did: 'unsubscribed' | 'undone' | null }

function answer(shown: Shown) {
  const works = shown.found === 'test' || shown.found.ok
  return json(shown, { status: works ? 200 : 400 })
}

/** A page with one button; opening the link changes nothing. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const token = tokenOf(request)
  // Links in mails sent while updates were on keep working after they are turned off.
  const found = token === testToken ? 'test' : context.subscribers.lookUnsubscribe(token)
  return answer({ farm: context.farm.name, found, did: null })
}

/**
 * The one-click POST from a mail program (RFC 8058: body `List-Unsubscribe=One-Click`, no cookie,
 * no sign-in) and the page's button both unsubscribe at once; only `intent=undo`, the page's own
 * Undo button, subscribes them again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const token = tokenOf(request)
  const farm = context.farm.name
  if (token === testToken) return answer({ farm, found: 'test', did: null })
  const { subscribers } = context
  const form = await request.formData().catch(() => new FormData())
  const undo = form.get('intent') === 'undo'
  const found = undo ? await subscribers.undo(token) : await subscribers.unsubscribe(token)
  return answer({ farm, found, did: undo ? 'undone' : 'unsubscribed' })
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>()
  const { farm, found, did } = useActionData<typeof action>() ?? loaded
  if (found === 'test') {
    return (
      <LinkPage title="A test mail’s link">
        <p className="mt-4 text-stone-700">
          This is the unsubscribe link of a test mail, and it changes nothing. In each subscriber’s mail, this link
          unsubscribes them in one click.
        </p>
      </LinkPage>
    )
  }
  if (!found.ok) {
    return (
      <LinkPage title={brokenLink[found.why].title}>
        <p className="mt-4 text-stone-700">{brokenLink[found.why].text}</p>
      </LinkPage>
    )
  }
  if (found.status === 'subscribed') {
    return (
      <LinkPage title={did === 'undone' ? 'You are subscribed again' : `Unsubscribe from ${farm}’s updates`}>
        <p className="mt-4 text-stone-700" role={did ? 'status' : undefined}>
          {did === 'undone'
            ? `${found.email} will get ${farm}’s updates again.`
            : `${found.email} gets ${farm}’s updates. One click and you will get no more.`}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="unsubscribe" />
          <button type="submit" className={pageButton}>
            Unsubscribe
          </button>
        </Form>
      </LinkPage>
    )
  }
  return (
    <LinkPage title="You are unsubscribed">
      <p className="mt-4 text-stone-700" role="status">
        {found.email} will get no more updates from {farm}
        {found.status === 'undeliverable' ? ' (our mail to it was refused)' : ''}.
      </p>
      {found.mayUndo ? (
        <Form method="post">
          <input type="hidden" name="intent" value="undo" />
          <p className="mt-4 text-sm text-stone-600">Unsubscribed by mistake?</p>
          <button type="submit" className={quietButton}>
            Undo: send me updates again
          </button>
        </Form>
      ) : null}
    </LinkPage>
  )
}
