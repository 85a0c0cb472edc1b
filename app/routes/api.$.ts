import { json, type LoaderFunctionArgs } from '@remix-run/node'

function notFound({ request }: LoaderFunctionArgs) {
  return json({ error: `There is no API at ${new URL(request.url).pathname}.` }, { status: 404 })
}

export const loader = notFound
export const action = notFound
