import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { readPersonAddress } from '#app/lifecycle/person-address'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { forgotWords, recordDeed } from '#app/team/deeds.server'
import { sortableTime } from '#app/clock/dates'

const nothingAbout = (address: string) => jsonError(404, `The site holds nothing about ${address}.`)

/**
 * `GET /api/people?email=…`: everything the site holds about one person, as a JSON file to give
 * them (all they sent, and all sent to them or about them).
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    // Remix runs loaders for OPTIONS too; the answer names every method the address takes.
    requireMethod(request, ['GET', 'HEAD', 'DELETE'])
    const pass = await requirePermission(request, context, 'data:export', { as: 'api', to: "export a person's data" })
    const address = readPersonAddress(new URL(request.url).searchParams)
    if (!address.ok) return jsonError(400, address.error)
    const everything = context.people.exportOf(address.email)
    if (!everything) return nothingAbout(address.email)
    // A HEAD asks what a download would be: nothing was given.
    if (request.method === 'GET')
      await recordDeed(context, pass, 'person-export', 'Exported a person’s data', address.email)
    return json(everything, {
      headers: {
        ...ownerDataHeaders,
        'Content-Disposition': `attachment; filename="person-${sortableTime(Date.now(), context.farm.timeZone).slice(0, 10)}.json"`,
      },
    })
  })
}

/** `DELETE /api/people?email=…`: forgets the person, every tab told; answers what was deleted. */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['GET', 'HEAD', 'DELETE'])
    const pass = await requirePermission(request, context, 'data:erase', { as: 'api', to: 'forget a person' })
    const address = readPersonAddress(new URL(request.url).searchParams)
    if (!address.ok) return jsonError(400, address.error)
    const forgotten = await context.people.forget(address.email, pass.who.id)
    if (!forgotten) return nothingAbout(address.email)
    await recordDeed(context, pass, 'forget', forgotWords(forgotten), address.email)
    return json({ forgotten }, { headers: ownerDataHeaders })
  })
}
