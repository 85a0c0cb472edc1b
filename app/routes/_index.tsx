import type { ClientLoaderFunctionArgs } from '@remix-run/react'
import type { MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import type { loader } from '#app/home/home-page.server'
import { homeMeta, VisitorHome } from '#app/home/visitor-home'
import { loadMessages } from '#app/language/use-messages'
import type { StylesheetHandle } from '#app/stylesheet'

// The page's server half lives in its features, the route keeping only what the browser runs
// (decision 023): the loader with the home page's data, the action (and headers) with receiving.
export { loader } from '#app/home/home-page.server'
export { action, headers } from '#app/submissions/home-page.server'

export const handle: StylesheetHandle = { stylesheet: 'visitor' }

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? homeMeta(data) : [{ title: 'Welcome' }])

/** Reached in the browser from another page: its language's messages come before it renders. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>()
  await loadMessages(data.language)
  return data
}

export default function Home() {
  return <VisitorHome data={useLoaderData<typeof loader>()} />
}
