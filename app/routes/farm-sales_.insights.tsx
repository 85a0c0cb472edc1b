import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { OwnerPage } from '#app/components/owner-page'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { defaultRange, readRange } from '#app/insights/insights'
import { InsightsView } from '#app/insights/insights-view'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

export const meta: MetaFunction = () => [{ title: 'Insights' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** The season at a glance, for owners; a range not offered falls back to 12 weeks, with a note. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  await requirePermission(request, context, 'insights:read', { as: 'page', to: 'see the insights' })
  const range = readRange(new URL(request.url).searchParams)
  return json(
    {
      insights: context.insights.figures(range.ok ? range.weeks : defaultRange),
      note: range.ok ? null : 'There is no such range: showing 12 weeks. Choose 4 weeks, 12 weeks or a year.',
    },
    { headers: ownerDataHeaders },
  )
}

export default function Insights() {
  const { insights, note } = useLoaderData<typeof loader>()
  return (
    <OwnerPage title="Insights" wide>
      <InsightsView insights={insights} note={note} />
    </OwnerPage>
  )
}
