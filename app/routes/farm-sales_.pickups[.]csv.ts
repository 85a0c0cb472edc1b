import type { LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson } from '#app/http/json.server'
import { csvRow } from '#app/inbox/csv'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { linesWords, pickUpTimeWords, readPickUpView, statusWords } from '#app/orders/pick-ups'
import { farmCurrency } from '#app/this-week/week'

const columns = [
  'order',
  'pick-up day',
  'pick-up time',
  'name',
  'email',
  'what',
  `total (${farmCurrency.code})`,
  'status',
]

/** The pick-ups of today or this week as CSV, by pick-up time, for a spreadsheet or a clipboard. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'orders:read', { as: 'api', to: 'download the pick-ups' })
    const view = readPickUpView(new URL(request.url).searchParams.get('days'))
    const { from, to } = context.orders.days(view)
    const rows = context.orders
      .pickUps(from, to)
      .map((order) =>
        csvRow([
          order.id,
          order.pickUp.date,
          pickUpTimeWords(order.pickUp),
          order.name,
          order.email,
          linesWords(order.lines),
          order.totalCents === null ? '' : (order.totalCents / 100).toFixed(2),
          statusWords[order.status],
        ]),
      )
    return new Response(`\uFEFF${csvRow(columns)}${rows.join('')}`, {
      headers: {
        ...ownerDataHeaders,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="pick-ups-${from}${from === to ? '' : `-to-${to}`}.csv"`,
      },
    })
  })
}
