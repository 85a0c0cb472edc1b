import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { ownerDataHeaders } from '~/owner/owner-data'
import { csvStart, submissionCsvRow } from '~/submissions/csv'
import { apiPageSizes, readInboxQuery } from '~/submissions/inbox-query'

/** The whole view as CSV for a spreadsheet: the list's search and filters, no page limit, streamed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await context.owner.mayWatch(request.headers.get('Cookie')))) {
    return json({ error: 'Sign in as the farm owner to export submissions.' }, { status: 401 })
  }
  const query = readInboxQuery(new URL(request.url).searchParams, apiPageSizes)
  if (!query.ok) return json({ error: query.error }, { status: 400 })
  // The view's search and filters; pages and their size do not apply to an export.
  const { q, intent, product, urgency, status, spam } = query.page
  const pages = context.submissions.everyPage({ q, intent, product, urgency, status, spam })
  const encoder = new TextEncoder()
  // One chunk of rows per read: a slow download holds neither memory nor the database.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvStart))
    },
    pull(controller) {
      const next = pages.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value.map(submissionCsvRow).join('')))
    },
  })
  const day = new Date().toISOString().slice(0, 10)
  return new Response(body, {
    headers: {
      ...ownerDataHeaders,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="farm-submissions-${day}.csv"`,
    },
  })
}
