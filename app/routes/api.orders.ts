import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { readOrdersQuery } from '#app/orders/orders-query'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

/** The confirmed orders picked up between two days, as confirmed, a page at a time (`Link: rel="next"`). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['GET', 'HEAD'])
    await requirePermission(request, context, 'orders:read', { as: 'api', to: 'read the orders' })
    const url = new URL(request.url)
    const query = readOrdersQuery(url.searchParams, context.orders.days('today').from)
    if (!query.ok) return jsonError(400, query.error)
    const { orders, next } = context.orders.page(query.page)
    const headers = new Headers(ownerDataHeaders)
    if (next !== null) {
      const { from, to, limit } = query.page
      const nextPage = new URL('/api/orders', url)
      nextPage.search = new URLSearchParams({ from, to, limit: String(limit), after: String(next) }).toString()
      headers.set('Link', `<${nextPage.href}>; rel="next"`)
    }
    return json(orders, { headers })
  })
}

export function action() {
  return jsonError(405, 'Read orders here with GET; change one with PATCH /api/orders/:id.', { Allow: 'GET, HEAD' })
}
