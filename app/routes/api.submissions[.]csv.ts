import type { LoaderFunctionArgs } from '@remix-run/node'
import { apiPageSizes, readInboxQuery } from '#app/inbox/inbox-query'
import { answeringJson, jsonError } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { recordDeed } from '#app/team/deeds.server'
import { sortableTime } from '#app/clock/dates'

/** The whole view as CSV for a spreadsheet: the list's search and filters, no page limit, streamed. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const pass = await requirePermission(request, context, 'inbox:export', { as: 'api', to: 'export submissions' })
    const query = readInboxQuery(new URL(request.url).searchParams, apiPageSizes)
    if (!query.ok) return jsonError(400, query.error)
    // The view's search and filters; pages and their size do not apply to an export.
    const { q, intent, product, urgency, status, spam } = query.page
    const owner = pass.session ?? `address ${context.clientAddress}`
    const body = context.csvExports.start(owner, { q, intent, product, urgency, status, spam }, request.signal)
    if (!body) return jsonError(429, 'Exports are already downloading. Wait for one to finish, then try again.')
    const filters = Object.entries({ q, intent, product, urgency, status, spam }).filter(([, value]) => value)
    await recordDeed(
      context,
      pass,
      'export',
      filters.length
        ? `Exported the inbox as CSV (${filters.map(([name]) => name).join(', ')} chosen)`
        : 'Exported the inbox as CSV',
    )
    const day = sortableTime(Date.now(), context.farm.timeZone).slice(0, 10)
    return new Response(body, {
      headers: {
        ...ownerDataHeaders,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="farm-submissions-${day}.csv"`,
      },
    })
  })
}
