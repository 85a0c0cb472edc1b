import { useFetcher } from '@remix-run/react'
import { useMessages, usePageLanguage } from '#app/language/use-messages'
import { spamTrapFields } from '#app/submissions/contact-fields'

// Its own module, which the tell-me page (its answer without JavaScript) imports alone: the rest
// of this week's section is the home page's script only.

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

/** What the tell-me form answers, with or without JavaScript. */
export type TellMeAnswer = { ok: true; said: string } | { ok: false; error: string }

/** Name and address, to be told when it is ready; a lead of its own, confirmed by mail like the form's. */
export function TellMeForm({
  product,
  formToken,
  open = false,
}: {
  product: string
  formToken: string
  open?: boolean
}) {
  const messages = useMessages()
  const language = usePageLanguage()
  const fetcher = useFetcher<TellMeAnswer>()
  const answer = fetcher.data
  const id = `tell-${product.replace(/[^a-z0-9]+/gi, '-')}`
  if (answer?.ok)
    return (
      <p role="status" className="mt-3 font-semibold text-green-800">
        {answer.said}
      </p>
    )
  return (
    <details className="mt-3" open={open || (answer !== undefined && !answer.ok)}>
      <summary className="cursor-pointer font-semibold text-green-800 underline underline-offset-4">
        {messages.tellMeWhenReady()}
      </summary>
      <fetcher.Form method="post" action={`/this-week/tell-me?language=${language}`} className="mt-3 space-y-3">
        <input type="hidden" name="product" value={product} />
        <input type="hidden" name={spamTrapFields.startedAt} value={formToken} />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={`${id}-website`}>{messages.leaveEmpty()}</label>
          <input id={`${id}-website`} name={spamTrapFields.honeypot} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <label className="block text-sm font-semibold text-stone-800">
          {messages.yourName()}
          <input name="name" required maxLength={100} autoComplete="name" className={`mt-1 ${fieldStyle}`} />
        </label>
        <label className="block text-sm font-semibold text-stone-800">
          {messages.yourEmail()}
          <input
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            className={`mt-1 ${fieldStyle}`}
          />
        </label>
        {answer && !answer.ok ? (
          <p role="alert" className="text-sm font-semibold text-red-800">
            {answer.error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={fetcher.state !== 'idle'}
          className="rounded-full bg-green-800 px-5 py-2 font-semibold text-white hover:bg-green-900 disabled:opacity-60"
        >
          {messages.tellMe()}
        </button>
      </fetcher.Form>
    </details>
  )
}
