import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { Language } from '#app/language/languages'

/** What a confirm or unsubscribe page says, in the subscriber's language: said by the server, so no messages reach the browser. */
export interface LinkPageWords {
  /** The page's language (its `<html lang>`) and its title. */
  language: Language
  pageTitle: string
  title: string
  text: string
  /** Said as the answer to the visitor's own press (a status). */
  told: boolean
  /** The words a press of the button says yes to. */
  quote: string | null
  button: { label: string; intent: string | null; quiet: boolean; before: string | null } | null
  after: string | null
}

const pageButton =
  'mt-6 rounded-full bg-green-800 px-6 py-3 font-semibold text-white hover:bg-green-900 focus:ring-2 focus:ring-green-700 focus:ring-offset-2 focus:outline-none'
const quietButton =
  'mt-4 rounded-full px-5 py-2 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

/** The card the confirm and unsubscribe pages show, in the site's colours, saying what the server wrote in the subscriber's language. */
export function LinkPage({ words }: { words: LinkPageWords }) {
  const { title, text, told, quote, button, after } = words
  return (
    <LinkCard title={title}>
      <p className="mt-4 break-words text-stone-700" role={told ? 'status' : undefined}>
        {text}
      </p>
      {quote ? (
        <blockquote className="mt-4 rounded-2xl bg-green-50 px-5 py-4 text-green-950 ring-1 ring-green-200">
          {quote}
        </blockquote>
      ) : null}
      {button ? (
        <Form method="post">
          {button.intent ? <input type="hidden" name="intent" value={button.intent} /> : null}
          {button.before ? <p className="mt-4 text-sm text-stone-600">{button.before}</p> : null}
          <button type="submit" className={button.quiet ? quietButton : pageButton}>
            {button.label}
          </button>
        </Form>
      ) : null}
      {after ? <p className="mt-4 text-sm text-stone-600">{after}</p> : null}
    </LinkCard>
  )
}

/** The card a page reached by a link from a mail shows (confirm, unsubscribe, an order). */
export function LinkCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      <div className="rounded-3xl bg-white p-8 shadow-xl shadow-green-900/10 ring-1 ring-stone-200">
        <h1 className="font-serif text-3xl font-bold text-green-900">{title}</h1>
        {children}
      </div>
    </main>
  )
}
