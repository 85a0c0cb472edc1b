import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { couldNotSend, spamTrapFields, tooManySubmissions } from '#app/submissions/contact-fields'
import { TellMeForm, type TellMeAnswer } from '#app/this-week/tell-me-form'
import { capitalised, productIs } from '#app/this-week/week'

export const meta: MetaFunction = () => [{ title: 'Tell me when it’s ready' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** Without JavaScript, the form's answer is this page; asked directly, it offers the form again. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const product = (new URL(request.url).searchParams.get('product') ?? '').slice(0, 100)
  const known = context.updates !== null && context.week.list.item(product) !== undefined
  return json({ product: known ? product : null, formToken: context.spamTraps.issueToken() })
}

const notTakingAsks = 'The farm is not taking these asks just now: write to us with the form instead.'

const saidTo = (product: string, subscribed: boolean) =>
  subscribed
    ? `Thank you! You are on our updates: we will tell you when ${productIs(product)} ready.`
    : `Thank you! Check your mail: once you confirm, we will tell you when ${productIs(product)} ready.`

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const form = await request.formData().catch(() => null)
  const text = (key: string) => {
    const value = form?.get(key)
    return typeof value === 'string' ? value : ''
  }
  const answer = (body: TellMeAnswer, status = 200, headers?: HeadersInit) => json(body, { status, headers })
  if (!form) return answer({ ok: false, error: 'We could not read the form. Please try again.' }, 400)
  // Without the updates (their confirm mail and links), no one can be told: the form is not shown either.
  if (!context.updates) return answer({ ok: false, error: notTakingAsks }, 403)
  const traps = Object.fromEntries(Object.values(spamTrapFields).map((field) => [field, form.get(field) ?? undefined]))
  const asked = await context.week.tellMe.ask(context, {
    product: text('product'),
    name: text('name'),
    email: text('email'),
    traps,
    clientAddress: context.clientAddress,
  })
  switch (asked.outcome) {
    case 'stored':
      return answer({ ok: true, said: saidTo(text('product'), asked.subscribed === true) })
    case 'set aside':
      return answer({ ok: true, said: saidTo(text('product'), false) })
    case 'no such product':
      return answer({ ok: false, error: 'That product is not waiting to be ready: see this week’s list.' }, 400)
    case 'invalid':
      return answer({ ok: false, error: Object.values(asked.errors)[0] ?? 'Please check your name and email.' }, 400)
    case 'too many':
      return answer({ ok: false, error: tooManySubmissions }, 429, { 'Retry-After': String(asked.retryAfterSeconds) })
    case 'failed':
      return answer({ ok: false, error: couldNotSend }, 500)
  }
}

export default function TellMe() {
  const { product, formToken } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-xl px-4 pb-20 pt-12 sm:px-6">
      <h1 className="font-serif text-3xl font-bold text-green-900">
        {product ? `${capitalised(product)}: tell me when it’s ready` : 'Tell me when it’s ready'}
      </h1>
      {answer?.ok ? (
        <p role="status" className="mt-6 text-lg font-semibold text-green-800">
          {answer.said}
        </p>
      ) : (
        <>
          {answer ? (
            <p role="alert" className="mt-6 font-semibold text-red-800">
              {answer.error}
            </p>
          ) : null}
          {product ? <TellMeForm product={product} formToken={formToken} open /> : null}
        </>
      )}
      <p className="mt-8">
        <Link to="/#this-week" className="font-semibold text-green-800 underline underline-offset-4">
          Back to this week’s list
        </Link>
      </p>
    </main>
  )
}
