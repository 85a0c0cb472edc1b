import { json, type MetaFunction } from '@remix-run/node'
import { Link, useLocation } from '@remix-run/react'
import { useEffect } from 'react'

export const meta: MetaFunction = () => [{ title: 'Page Not Found' }]

export function loader() {
  return json(null, { status: 404 })
}

export default function NotFound() {
  const { pathname } = useLocation()
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname)
  }, [pathname])
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="font-serif text-7xl font-bold text-amber-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 font-serif text-3xl font-bold text-green-900">Page Not Found</h1>
      <p className="mt-3 text-lg text-stone-700">Sorry, we couldn&apos;t find the page you&apos;re looking for.</p>
      <Link
        to="/"
        className="mt-8 rounded-xl bg-green-800 px-6 py-3 font-semibold text-white shadow hover:bg-green-900"
      >
        Return to Home
      </Link>
    </main>
  )
}
