import type { RunningServer } from './server'

/** The settings page's form, posted as a browser without JavaScript posts it: its status, where it sends, its page. */
export async function postSettingsPage(
  server: RunningServer,
  cookie: string,
  fields: Record<string, string>,
  origin = server.url,
) {
  const response = await fetch(`${server.url}/farm-sales/settings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: origin },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
  return { status: response.status, location: response.headers.get('Location'), html: await response.text() }
}
