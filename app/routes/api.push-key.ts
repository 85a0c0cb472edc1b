import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson } from '#app/http/json.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePushOwner } from '#app/push/push-requests.server'

/** The VAPID public key a browser subscribes with: `{publicKey}` (base64url). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    const { phones } = await requirePushOwner(request, context, 'be notified of leads')
    return json({ publicKey: phones.publicKey }, { headers: ownerDataHeaders })
  })
}
