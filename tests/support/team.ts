import { expect } from 'vitest'
import { rawRequest, type RawAnswer } from './raw-request'

let nextAddress = 1
/**
 * A fresh client address per call, for servers started with TRUST_PROXY=loopback: sign-ins are
 * limited to 5 a minute per address, and a test of the team signs in more often than that.
 */
export const fromSomewhere = () => ({ 'X-Forwarded-For': `198.51.100.${nextAddress++ % 250}` })

const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
export const cookieOf = (answer: RawAnswer) => String(answer.headers['set-cookie']).split(';')[0]!

/** Signs in through the real form; `email` '' is the first owner with OWNER_PASSWORD. */
export async function signInAs(url: string, email: string, password: string): Promise<string> {
  const answer = await rawRequest(url, {
    path: '/sign-in',
    headers: { ...form, ...fromSomewhere() },
    body: new URLSearchParams({ email, password, redirectTo: '/farm-sales' }).toString(),
  })
  expect(answer.status, answer.text).toBe(302)
  return cookieOf(answer)
}

/** Posts the team page's form (as a browser without JavaScript does), answering JSON (`_data`). */
export function teamForm(url: string, cookie: string, fields: Record<string, string>, path = '/farm-sales/team') {
  return rawRequest(url, {
    path: `${path}?_data=${encodeURIComponent(`routes/${path === '/farm-sales/team' ? 'farm-sales_.team' : 'farm-sales_.me'}`)}`,
    headers: { ...form, Cookie: cookie, ...fromSomewhere() },
    body: new URLSearchParams(fields).toString(),
  })
}

/** An owner adds someone: their invitation link's token. */
export async function invite(url: string, ownerCookie: string, person: { name: string; email: string; role: string }) {
  const answer = await teamForm(url, ownerCookie, { intent: 'invite', ...person })
  expect(answer.status, answer.text).toBe(200)
  const { invited } = JSON.parse(answer.text) as { invited: { link: string } }
  return invited.link.slice(invited.link.lastIndexOf('/') + 1)
}

/** Takes an invitation with a password; the answer as it came. */
export function join(url: string, token: string, password: string) {
  return rawRequest(url, {
    path: `/join/${token}`,
    headers: { ...form, ...fromSomewhere() },
    body: new URLSearchParams({ password }).toString(),
  })
}

/** An owner adds a person who joins at once: their session's cookie. */
export async function addPerson(
  url: string,
  ownerCookie: string,
  person: { name: string; email: string; role: 'owner' | 'helper'; password?: string },
) {
  const token = await invite(url, ownerCookie, person)
  const joined = await join(url, token, person.password ?? 'sweet peas by the gate')
  expect(joined.status, joined.text).toBe(302)
  return cookieOf(joined)
}
