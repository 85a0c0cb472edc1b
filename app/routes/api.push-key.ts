import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

/** The VAPID public key a browser subscribes with: `{publicKey}` (base64url). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'phone:notify', { as: 'api', to: 'be notified of leads' })
    // The guard found notifications on.
    return json({ publicKey: context.push!.publicKey }, { headers: ownerDataHeaders })
  })
}
