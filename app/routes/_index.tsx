import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'

export function loader({ context }: LoaderFunctionArgs) {
  return json({ farm: context.farm })
}

export default function Home() {
  const { farm } = useLoaderData<typeof loader>()
  return (
    <main>
      <h1>Welcome to {farm.name}</h1>
      <p>Fill out the form to stay updated with our latest products and receive exclusive offers.</p>
    </main>
  )
}
