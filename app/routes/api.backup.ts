import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { answeringJson, jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { backupName } from '#app/lifecycle/backup-files.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { recordDeed } from '#app/team/deeds.server'

/**
 * A backup to download now: one consistent copy of the whole database (taken while leads keep
 * arriving), streamed as a SQLite file that `npm run restore` takes. Only for the signed-in owner.
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    // Remix runs loaders for OPTIONS too: only a GET makes a copy.
    requireMethod(request, ['GET', 'HEAD'])
    const pass = await requirePermission(request, context, 'data:export', { as: 'api', to: 'download a backup' })
    const headers = {
      ...ownerDataHeaders,
      'Content-Type': 'application/vnd.sqlite3',
      'Content-Disposition': `attachment; filename="${backupName(new Date())}"`,
    }
    // A HEAD asks what a download would be, without the cost of a copy.
    if (request.method === 'HEAD') return new Response(null, { headers })
    const copy = await context.backups.download()
    if (!copy.ok) {
      return copy.busy
        ? jsonError(429, 'A backup is already downloading. Wait for it to finish, then try again.', {
            'Retry-After': '30',
          })
        : jsonError(503, 'The backup could not be made just now (see the log). Please try again.')
    }
    await recordDeed(context, pass, 'backup-download', `Downloaded a backup (${copy.bytes} bytes)`)
    return new Response(copy.body, { headers: { ...headers, 'Content-Length': String(copy.bytes) } })
  })
}

/** A backup is only read: every other method is refused by the method guard. */
export function action({ request }: ActionFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
}
