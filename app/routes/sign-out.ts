import { redirect, type ActionFunctionArgs } from '@remix-run/node'

export async function action({ context }: ActionFunctionArgs) {
  return redirect('/', { headers: { 'Set-Cookie': await context.owner.signOut() } })
}

export function loader() {
  return redirect('/')
}
