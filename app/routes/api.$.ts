import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'

function notFound({ request }: LoaderFunctionArgs) {
  return jsonError(404, `There is no API at ${new URL(request.url).pathname}.`)
}

export const loader = notFound
export const action = notFound
