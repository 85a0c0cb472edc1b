import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { requireMethod } from '#app/http/require-method.server'
import { cameOverHttps } from '#app/owner/request-security'

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const cleared = await context.owner.signOut(request.headers.get('Cookie'), { secure: cameOverHttps(request) })
  return redirect('/', { headers: { 'Set-Cookie': cleared } })
}

export function loader() {
  return redirect('/')
}
