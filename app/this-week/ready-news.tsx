import { Form, useNavigation } from '@remix-run/react'
import { capitalised, productIs, type ReadyNews } from './week'

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

const people = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'person' : 'people'}`

/**
 * On the updates page: for each product just for sale, the update proposed to those waiting for
 * it, drafted from the week's list; nothing goes out until the owner presses Send.
 */
export function ReadyNewsList({ news }: { news: ReadyNews[] }) {
  const navigation = useNavigation()
  if (news.length === 0) return null
  return (
    <section aria-labelledby="ready-news-title" className="mt-8">
      <h2 id="ready-news-title" className="font-serif text-2xl font-bold text-green-900">
        Ready to tell
      </h2>
      <ul className="mt-4 space-y-4">
        {news.map((item) => (
          <li key={item.product}>
            <Form
              method="post"
              action="/farm-sales/this-week/news"
              aria-label={`Tell them ${productIs(item.product)} ready`}
              className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
            >
              <input type="hidden" name="product" value={item.product} />
              <h3 className="font-serif text-xl font-bold text-green-900">
                {capitalised(productIs(item.product))} for sale
              </h3>
              <p className="mt-1 text-stone-700" data-testid="waiting-count">
                {people(item.waiting)} asked to be told when {productIs(item.product)} ready.
              </p>
              {item.askedAbout > 0 ? (
                <label className="mt-2 flex items-start gap-2 text-stone-700">
                  <input type="checkbox" name="alsoAsked" value="yes" className="mt-1.5 h-4 w-4" />
                  <span>
                    Also tell {people(item.askedAbout)} who asked about {item.product} in a message and said yes to
                    updates.
                  </span>
                </label>
              ) : null}
              <label className="mt-3 block text-sm font-semibold text-stone-800">
                Subject
                <input name="subject" defaultValue={item.subject} maxLength={200} className={`mt-1 ${fieldStyle}`} />
              </label>
              <label className="mt-3 block text-sm font-semibold text-stone-800">
                Message
                <textarea name="text" rows={5} defaultValue={item.text} className={`mt-1 ${fieldStyle}`} />
              </label>
              <button
                type="submit"
                disabled={navigation.state === 'submitting'}
                className="mt-4 rounded-full bg-green-800 px-6 py-2.5 font-semibold text-white hover:bg-green-900 disabled:opacity-60"
              >
                Send
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  )
}
