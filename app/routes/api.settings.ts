import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, errorBody, jsonError, readJsonBody } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { applyChange } from '#app/settings/settings-requests.server'
import { isJsonObject } from '#app/http/json-object'
import { requirePermission } from '#app/owner/require-permission.server'

/** Every setting: its value (a secret only as set or not), where it comes from, and what locks it. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'settings:change', { as: 'api', to: 'read the settings' })
    return json({ data: context.settings.view() }, { headers: ownerDataHeaders })
  })
}

/**
 * Changes settings: `{"FARM_NAME": "…", "WEBHOOK_SECRET": null}` (null, or "", takes the default)
 * → 200 with every setting, once all of it holds; 400 with each refused field's words, or 409 for
 * a field the environment sets. Nothing is stored unless every value holds.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['PATCH'])
    await requirePermission(request, context, 'settings:change', { as: 'api', to: 'change the settings' })
    const read = await readJsonBody(request, 'the settings')
    if (!read.ok) return read.answer
    const body = read.body
    if (!isJsonObject(body)) return jsonError(400, 'Send the settings as one JSON object: {"FARM_NAME": "…"}.')
    const done = await applyChange(body, context)
    if (done.ok) return json({ data: context.settings.view() }, { headers: ownerDataHeaders })
    if (done.refusal.kind === 'request') return jsonError(done.refusal.status, done.refusal.error)
    return json(
      { ...errorBody('Nothing was saved: a value does not hold.'), fields: done.refusal.fields },
      { status: 400, headers: ownerDataHeaders },
    )
  })
}
