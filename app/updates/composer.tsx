import { Form, useFetcher, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { intentWords } from '#app/analysis/intent-words'
import type { Intent } from '#app/analysis/analysis'

/** The mail exactly as the first recipient would get it, and how many would: the composer's last question. */
export interface Review {
  recipients: number
  to: { name: string; email: string } | null
  subject: string
  text: string
  html: string
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const quietButton =
  'rounded-full px-4 py-2 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const mainButton =
  'rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60'

const subscribersWord = (count: number) =>
  `${count.toLocaleString('en-GB')} ${count === 1 ? 'subscriber' : 'subscribers'}`

/**
 * Subject, text and audience, then "Send a test to me" or "Send to N subscribers…", which shows the
 * mail as a recipient gets it (HTML and text) and asks once more. One form, with JavaScript or
 * without; with it, the audience's count follows each choice.
 */
export function Composer({
  choices,
  formKey,
  owner,
  limits,
  draft,
  review,
  problem,
  tested,
}: {
  choices: { products: string[]; intents: readonly Intent[] }
  formKey: string
  owner: string
  limits: { subject: number; text: number }
  draft: { subject: string; text: string; products: string[]; intents: string[] } | null
  review: Review | null
  problem: string | null
  tested: string | null
}) {
  const [requestKey] = useState(formKey)
  const busy = useNavigation().state === 'submitting'
  const audience = useFetcher<{ recipients?: number }>()
  const [changedSinceReview, setChangedSinceReview] = useState(false)
  useEffect(() => setChangedSinceReview(false), [review])
  const form = useRef<HTMLFormElement>(null)

  function countAudience() {
    if (!form.current) return
    const chosen = new FormData(form.current)
    const query = new URLSearchParams()
    for (const product of chosen.getAll('product')) query.append('product', String(product))
    for (const intent of chosen.getAll('intent-of')) query.append('intent', String(intent))
    audience.load(`/api/updates/audience?${query}`)
  }
  const counted = audience.data?.recipients
  const showReview = review && !changedSinceReview

  return (
    <section aria-labelledby="composer-title" className="mt-10">
      <h2 id="composer-title" className="font-serif text-2xl font-bold text-green-900">
        New update
      </h2>
      <Form
        ref={form}
        method="post"
        onChange={() => setChangedSinceReview(true)}
        className="mt-4 space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
      >
        <input type="hidden" name="requestKey" value={requestKey} />
        <div>
          <label htmlFor="subject" className="mb-1.5 block text-sm font-semibold text-stone-800">
            Subject
          </label>
          <input
            id="subject"
            name="subject"
            maxLength={limits.subject}
            defaultValue={draft?.subject ?? ''}
            className={fieldStyle}
          />
        </div>
        <div>
          <label htmlFor="text" className="mb-1.5 block text-sm font-semibold text-stone-800">
            Text
          </label>
          <p id="text-help" className="mb-1.5 text-sm text-stone-600">
            Plain text: a blank line starts a paragraph, and web addresses become links. <code>{'{name}'}</code> becomes
            each subscriber’s name, <code>{'{farm}'}</code> the farm’s.
          </p>
          <textarea
            id="text"
            name="text"
            rows={9}
            aria-describedby="text-help"
            defaultValue={draft?.text ?? ''}
            className={fieldStyle}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-stone-800">Who gets it</legend>
          <p className="mt-1 text-sm text-stone-600">
            Everyone, unless you choose: then only subscribers whose messages asked about one of the chosen products
            (and one of the chosen kinds, if you choose some).
          </p>
          <Choices
            heading="Products"
            name="product"
            options={choices.products.map((product) => ({ value: product, words: product }))}
            chosen={draft?.products ?? []}
            onChange={countAudience}
          />
          <Choices
            heading="Kinds of message"
            name="intent-of"
            options={choices.intents.map((intent) => ({ value: intent, words: intentWords[intent].filter }))}
            chosen={draft?.intents ?? []}
            onChange={countAudience}
          />
          {counted !== undefined ? (
            <p role="status" data-testid="audience-count" className="mt-3 text-sm font-semibold text-green-900">
              {`Goes to ${subscribersWord(counted)}.`}
            </p>
          ) : null}
        </fieldset>
        {problem ? (
          <p
            role="alert"
            className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-900 ring-1 ring-red-200"
          >
            {`Not sent: ${problem}`}
          </p>
        ) : null}
        {tested ? (
          <p role="status" className="rounded-xl bg-green-50 px-4 py-3 text-sm text-green-950 ring-1 ring-green-200">
            {`A test went to ${tested}.`}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="review" disabled={busy} className={mainButton}>
            {counted !== undefined ? `Send to ${subscribersWord(counted)}…` : 'Send…'}
          </button>
          <button type="submit" name="intent" value="test" disabled={busy} className={quietButton}>
            Send a test to me
          </button>
        </div>
        <p className="text-xs text-stone-600">The test goes to {owner}. Sending shows the mail once more first.</p>
        {showReview ? (
          <div className="rounded-2xl bg-amber-50 p-4 ring-1 ring-amber-300" data-testid="review">
            <h3 className="font-semibold text-amber-950">
              {`Send “${review.subject}” to ${subscribersWord(review.recipients)} now?`}
            </h3>
            <p className="mt-1 text-sm text-amber-950">
              {review.to
                ? `This is the mail ${review.to.name || review.to.email} gets; each subscriber gets their own name and unsubscribe link.`
                : 'This is the mail each subscriber gets, with their own name and unsubscribe link.'}
            </p>
            <div className="mt-3 grid gap-3 md:grid-cols-2">
              <iframe
                title="The mail as HTML"
                sandbox=""
                srcDoc={review.html}
                className="h-96 w-full rounded-xl bg-white ring-1 ring-stone-200"
              />
              {/* A <pre> may not be named (the Nu HTML Checker refuses it); the figure around it is. */}
              <figure aria-label="The mail as plain text">
                <pre className="h-96 overflow-auto rounded-xl bg-white p-3 font-mono text-xs break-words whitespace-pre-wrap text-stone-800 ring-1 ring-stone-200">
                  {review.text}
                </pre>
              </figure>
            </div>
            <button type="submit" name="intent" value="send" disabled={busy} className={`mt-4 ${mainButton}`}>
              {`Yes, send to ${subscribersWord(review.recipients)}`}
            </button>
          </div>
        ) : null}
      </Form>
    </section>
  )
}

/** One row of the audience's checkboxes (products, or kinds of message), under a small heading. */
function Choices({
  heading,
  name,
  options,
  chosen,
  onChange,
}: {
  heading: string
  name: string
  options: Array<{ value: string; words: string }>
  chosen: string[]
  onChange: () => void
}) {
  return (
    <>
      <p className="mt-3 text-xs font-semibold tracking-wide text-stone-600 uppercase">{heading}</p>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
        {options.map(({ value, words }) => (
          <label key={value} className="flex items-center gap-2 text-sm text-stone-800">
            <input
              type="checkbox"
              name={name}
              value={value}
              defaultChecked={chosen.includes(value)}
              onChange={onChange}
              className="size-4 accent-green-800"
            />
            {words}
          </label>
        ))}
      </div>
    </>
  )
}
