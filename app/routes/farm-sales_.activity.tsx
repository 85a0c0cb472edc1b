import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { OwnerPage } from '#app/components/owner-page'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requireOwner } from '#app/owner/require-owner.server'
import { isSubmissionId } from '#app/leads/lead'
import { shortTime } from '#app/team/dates'

export const meta: MetaFunction = () => [{ title: 'Activity' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** Newest first, a page at a time (`?before=` the last id shown); only for owners. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  await requireOwner(request, context, { as: 'page', to: 'read the activity log', role: 'owner' })
  const before = new URL(request.url).searchParams.get('before')
  const page = context.activity.page(before !== null && isSubmissionId(before) ? Number(before) : null)
  return json({ ...page, days: context.settings.config.activityDays }, { headers: ownerDataHeaders })
}

export default function Activity() {
  const { entries, next, days } = useLoaderData<typeof loader>()
  return (
    <OwnerPage title="Activity" wide>
      <p className="mt-3 text-stone-700">
        What was done with the farm’s data and team, and sign-ins that failed, kept {days} days. A visitor is never
        named here: an export or a forgetting shows only a code made from their address, the same for the same person.
      </p>
      {entries.length === 0 ? (
        <p className="mt-6 text-stone-700">Nothing yet.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Activity, newest first</caption>
            <thead className="bg-stone-50 text-stone-800">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">
                  When
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Who
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  What
                </th>
                <th scope="col" className="px-4 py-2 font-semibold">
                  From
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-t border-stone-100" data-testid="activity" data-kind={entry.kind}>
                  <td className="px-4 py-2 whitespace-nowrap text-stone-700">{shortTime(entry.at)}</td>
                  <td className="px-4 py-2 text-stone-900">{entry.who}</td>
                  <td className="px-4 py-2 text-stone-900">
                    {entry.detail}
                    {entry.subjectHash ? (
                      <span className="ml-1 text-stone-600">(visitor {entry.subjectHash.slice(0, 10)})</span>
                    ) : null}
                  </td>
                  <td className="px-4 py-2 text-stone-700">{entry.address ?? 'the command line'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
