import { json, type ActionFunctionArgs } from '@remix-run/node'
import { answeringJson } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { recordDeed } from '#app/team/deeds.server'

/** Empties the spam folder: `DELETE /api/spam` answers how many were deleted. Read spam from /api/submissions?spam=true. */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['DELETE'])
    const pass = await requirePermission(request, context, 'data:erase', { as: 'api', to: 'empty the spam folder' })
    const deleted = await context.inbox.emptySpam()
    await recordDeed(context, pass, 'empty-spam', `Emptied the spam folder: ${deleted} deleted`)
    return json({ deleted }, { headers: ownerDataHeaders })
  })
}

export const loader = action
