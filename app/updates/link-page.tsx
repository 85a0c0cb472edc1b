import type { ReactNode } from 'react'

/** The card the confirm and unsubscribe pages show, in the site's colours. */
export function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      <div className="rounded-3xl bg-white p-8 shadow-xl shadow-green-900/10 ring-1 ring-stone-200">
        <h1 className="font-serif text-3xl font-bold text-green-900">{title}</h1>
        {children}
      </div>
    </main>
  )
}

export const pageButton =
  'mt-6 rounded-full bg-green-800 px-6 py-3 font-semibold text-white hover:bg-green-900 focus:ring-2 focus:ring-green-700 focus:ring-offset-2 focus:outline-none'
export const quietButton =
  'mt-4 rounded-full px-5 py-2 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

/** What a link that does not work says, whatever is wrong with it: nothing was changed. */
export const brokenLink = {
  expired: {
    title: 'This link has expired',
    text: 'Links to confirm work for 7 days. Nothing was changed. Write to us again from our contact form and we will ask you once more.',
  },
  invalid: {
    title: 'This link does not work',
    text: 'It may be cut short or mistyped. Nothing was changed. Please use the whole link from our mail.',
  },
} as const
