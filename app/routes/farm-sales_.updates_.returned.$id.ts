import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { isSubmissionId } from '#app/leads/lead'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'

/**
 * A bounce or complaint as it came, for the signed-in owner: always plain text, never run or shown
 * as HTML (a stranger wrote it), in a sandbox should a browser try.
 */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['GET', 'HEAD'])
    await requirePermission(request, context, 'updates:send', { as: 'api', to: 'read what came back' })
    // The guard found updates on.
    const source = isSubmissionId(params.id ?? '') ? context.updates!.returned.source(Number(params.id)) : null
    if (source === null) return jsonError(404, 'There is no such bounce or complaint.')
    return new Response(request.method === 'HEAD' ? null : source, {
      headers: {
        ...ownerDataHeaders,
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
    })
  })
}

/** Only read: every other method is refused by the method guard. */
export function action({ request }: ActionFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
}
