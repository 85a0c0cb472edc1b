import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { OwnerPage } from '#app/components/owner-page'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { isSubmissionId } from '#app/leads/lead'
import { shortTime, zoneWords } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'

export const meta: MetaFunction = () => [{ title: 'Activity' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** Newest first, a page at a time (`?before=` the last id shown); only for owners. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  await requirePermission(request, context, 'activity:read', { as: 'page', to: 'read the activity log' })
  const before = new URL(request.url).searchParams.get('before')
  const page = context.activity.page(before !== null && isSubmissionId(before) ? Number(before) : null)
  return json({ ...page, days: context.settings.config.activityDays }, { headers: ownerDataHeaders })
}

export default function Activity() {
  const { entries, next, days } = useLoaderData<typeof loader>()
  const zone = useFarmClock()
  return (
    <OwnerPage title="Activity" wide>
      <p className="mt-3 text-stone-700">
        What was done with the farm’s data and team, and sign-ins that failed, kept {days} days. A visitor is never
        named here: an export or a forgetting shows only a code made from their address, the same for the same person.
        {` Times are ${zoneWords(zone)}.`}
      </p>
      {entries.length === 0 ? (
        <p className="mt-6 text-stone-700">Nothing yet.</p>
      ) : (
        <ol
          aria-label="Activity, newest first"
          className="mt-6 divide-y divide-stone-100 rounded-2xl bg-white shadow-sm ring-1 ring-stone-200"
        >
          {entries.map((entry) => (
            <li key={entry.id} className="px-4 py-3 sm:px-5" data-testid="activity" data-kind={entry.kind}>
              <p className="text-stone-900">
                {entry.detail}
                {entry.subjectHash ? (
                  <span className="ml-1 text-stone-600">(visitor {entry.subjectHash.slice(0, 10)})</span>
                ) : null}
              </p>
              <p className="mt-0.5 text-sm text-stone-600">
                <time dateTime={new Date(entry.at).toISOString()}>{shortTime(entry.at, zone)}</time> · {entry.who} ·
                from {entry.address ?? 'the command line'}
              </p>
            </li>
          ))}
        </ol>
      )}
      {next !== null ? (
        <Link
          to={`/farm-sales/activity?before=${next}`}
          className="mt-4 inline-block font-semibold text-green-800 underline"
        >
          Older
        </Link>
      ) : null}
    </OwnerPage>
  )
}
