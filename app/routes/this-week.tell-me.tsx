import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { catalogs } from '#app/language/catalogs.server'
import { homePathOf, spokenOr, type Language } from '#app/language/languages'
import { spamTrapFields } from '#app/submissions/contact-fields'
import { TellMeForm, type TellMeAnswer } from '#app/this-week/tell-me-form'
import { capitalised } from '#app/this-week/week'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.words.title ?? '' },
  { name: 'robots', content: 'noindex' },
]

export const headers = pageHeaders

/** The language the asking page was in (`?language=`), when the farm speaks it; else its first. */
const languageOf = (request: Request, context: LoaderFunctionArgs['context']) =>
  spokenOr(new URL(request.url).searchParams.get('language') ?? '', context.farm.languages)

/** Without JavaScript, the form's answer is this page; asked directly, it offers the form again. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const language = languageOf(request, context)
  const product = (new URL(request.url).searchParams.get('product') ?? '').slice(0, 100)
  const known = context.updates !== null && context.week.list.item(product) !== undefined
  const messages = catalogs[language]
  return json({
    language,
    product: known ? product : null,
    formToken: context.spamTraps.issueToken(),
    words: {
      title: messages.tellMeWhenReady(),
      heading: known ? messages.tellMeHeading({ product: capitalised(product) }) : messages.tellMeWhenReady(),
      back: messages.tellMeBack(),
      backTo: `${homePathOf(language, context.farm.languages)}#this-week`,
    },
  })
}

/** What the visitor is told once the ask is kept: that they will be told, or first to confirm by mail. */
function saidTo(language: Language, product: string, subscribed: boolean) {
  const messages = catalogs[language]
  // English says 'eggs are', 'honey is'; the other languages choose their own words by it.
  const form = product.endsWith('s') ? 'plural' : 'single'
  return subscribed ? messages.tellMeOnUpdates({ product, form }) : messages.tellMeCheckMail({ product, form })
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const language = languageOf(request, context)
  const messages = catalogs[language]
  const form = await request.formData().catch(() => null)
  const text = (key: string) => {
    const value = form?.get(key)
    return typeof value === 'string' ? value : ''
  }
  const answer = (body: TellMeAnswer, status = 200, headers?: HeadersInit) => json(body, { status, headers })
  if (!form) return answer({ ok: false, error: messages.couldNotRead() }, 400)
  // Without the updates (their confirm mail and links), no one can be told: the form is not shown either.
  if (!context.updates) return answer({ ok: false, error: messages.tellMeNotTaking() }, 403)
  const traps = Object.fromEntries(Object.values(spamTrapFields).map((field) => [field, form.get(field) ?? undefined]))
  const asked = await context.week.tellMe.ask(context, {
    product: text('product'),
    name: text('name'),
    email: text('email'),
    traps,
    clientAddress: context.clientAddress,
    language,
  })
  switch (asked.outcome) {
    case 'stored':
      return answer({ ok: true, said: saidTo(language, text('product'), asked.subscribed === true) })
    case 'set aside':
      return answer({ ok: true, said: saidTo(language, text('product'), false) })
    case 'no such product':
      return answer({ ok: false, error: messages.tellMeNoSuchProduct() }, 400)
    case 'invalid':
      return answer({ ok: false, error: Object.values(asked.errors)[0] ?? messages.tellMeCheckFields() }, 400)
    case 'too many':
      return answer({ ok: false, error: messages.tooManySubmissions() }, 429, {
        'Retry-After': String(asked.retryAfterSeconds),
      })
    case 'failed':
      return answer({ ok: false, error: messages.couldNotSend() }, 500)
  }
}

export default function TellMe() {
  const { product, formToken, words } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-xl px-4 pb-20 pt-12 sm:px-6">
      <h1 className="font-serif text-3xl font-bold text-green-900">{words.heading}</h1>
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
        <Link to={words.backTo} className="font-semibold text-green-800 underline underline-offset-4">
          {words.back}
        </Link>
      </p>
    </main>
  )
}
