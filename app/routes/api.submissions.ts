import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiPageSizes, pageParams, readInboxQuery } from '#app/inbox/inbox-query'
import { answeringJson, asResponse, jsonError, requestBytes } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { receiveJson } from '#app/submissions/receive-json.server'

export function loader({ request, context }: LoaderFunctionArgs) {
  return answeringJson(context.log, async () => {
    await requirePermission(request, context, 'inbox:read', { as: 'api', to: 'read submissions' })
    const url = new URL(request.url)
    const query = readInboxQuery(url.searchParams, apiPageSizes)
    if (!query.ok) return jsonError(400, query.error)
    const { submissions, next } = context.inbox.list(query.page)
    const headers = new Headers(ownerDataHeaders)
    headers.set('Farm-Changed-At', String(context.inbox.changedAt()))
    if (next !== null) {
      const nextPage = new URL('/api/submissions', url)
      nextPage.search = pageParams(query.page, next).toString()
      headers.set('Link', `<${nextPage.href}>; rel="next"`)
    }
    return json(submissions, { headers })
  })
}

export function action({ request, context }: ActionFunctionArgs) {
  return answeringJson(context.log, async () => {
    requireMethod(request, ['GET', 'POST'])
    const posted = {
      contentType: request.headers.get('Content-Type'),
      body: await requestBytes(request),
      clientAddress: context.clientAddress,
    }
    return asResponse(await receiveJson(context, posted))
  })
}
