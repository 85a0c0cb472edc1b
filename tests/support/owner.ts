import { rawRequest } from './raw-request'

/** The owner's password (OWNER_PASSWORD) of every test site that needs no other: written here only. */
export const ownerPassword = 'orchard gate at noon'

/** Signs in through the real sign-in form and gives back the session's Cookie header value. */
export async function signInAsOwner(url: string, password: string): Promise<string> {
  const answer = await rawRequest(url, {
    path: '/sign-in',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, redirectTo: '/farm-sales' }).toString(),
  })
  if (answer.status !== 302) throw new Error(`Signing in answered ${answer.status}`)
  return String(answer.headers['set-cookie']).split(';')[0]!
}
