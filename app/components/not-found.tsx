import { Link, useLocation } from '@remix-run/react'
import { useEffect } from 'react'
import { useMessages } from '#app/language/use-messages'

/** The 404 page, in the language the visitor was reading, back to that language's home page. */
export function NotFound({ home }: { home: string }) {
  const messages = useMessages()
  const { pathname } = useLocation()
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname)
  }, [pathname])
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="font-serif text-7xl font-bold text-amber-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 font-serif text-3xl font-bold text-green-900">{messages.notFoundTitle()}</h1>
      <p className="mt-3 text-lg text-stone-700">{messages.notFoundText()}</p>
      <Link
        to={home}
        className="mt-8 rounded-xl bg-green-800 px-6 py-3 font-semibold text-white shadow hover:bg-green-900"
      >
        {messages.returnHome()}
      </Link>
    </main>
  )
}
