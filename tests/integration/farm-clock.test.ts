// The farm's clock on the real server (FARM_TIME_ZONE): a lead of Sunday 23:30 UTC is Monday's on
// its card and in Monday's week in the insights, while the API says it in UTC; the owner's mail
// says its local time; the zone is taken from the first sign-in only, changed on the settings page
// and refused in words when it is none. The boundary sums themselves are app/clock's unit tests'.
import Sqlite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { Insights } from '#app/insights/insights'
import type { Submission } from '#app/leads/lead'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { rawRequest } from '#tests/support/raw-request'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'
import { postSettingsPage } from '#tests/support/settings-page'

const dayMs = 24 * 60 * 60 * 1000
const auckland = 'Pacific/Auckland'
const mailServers: MailServer[] = []
afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
const serve = serverPerTest('SIGKILL')

/** The last Sunday, 23:30 UTC, before now: Monday lunchtime in Auckland. */
function lastSundayNight(now = Date.now()): number {
  const today = new Date(now)
  const sunday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - today.getUTCDay(), 23, 30)
  return sunday <= now ? sunday : sunday - 7 * dayMs
}

/** A moment in Auckland as Intl reads it, to hold the site's own sums to: its day, time and offset from UTC. */
function inAuckland(ms: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: auckland,
      weekday: 'long',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(ms)
      .map(({ type, value }) => [type, value]),
  )
  const [, sign, hours] = /GMT([+-])(\d\d):00/.exec(parts.timeZoneName!)!
  return {
    weekday: parts.weekday!,
    shown: `${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}`,
    date: `${parts.day} ${parts.month} ${parts.year}`,
    offsetMs: Number(`${sign}${hours}`) * 60 * 60 * 1000,
  }
}

function storeLead(server: RunningServer, name: string, at: number): number {
  const sqlite = new Sqlite(server.databasePath)
  try {
    return Number(
      sqlite
        .prepare(
          "INSERT INTO submissions (name, email, message, created_at) VALUES (?, 'late@example.com', 'Eggs?', ?)",
        )
        .run(name, at).lastInsertRowid,
    )
  } finally {
    sqlite.close()
  }
}

async function signInFrom(server: RunningServer, timeZone: string | null) {
  const answer = await rawRequest(server.url, {
    path: '/sign-in',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, redirectTo: '/farm-sales', ...(timeZone ? { timeZone } : {}) }).toString(),
  })
  expect(answer.status).toBe(302)
  return String(answer.headers['set-cookie']).split(';')[0]!
}

async function zoneOf(server: RunningServer, cookie: string) {
  const answer = await fetch(`${server.url}/api/settings`, { headers: { Cookie: cookie } })
  const states = ((await answer.json()) as { data: Array<{ key: string; value: string | null; source: string }> }).data
  return states.find((state) => state.key === 'FARM_TIME_ZONE')!
}

const patch = (server: RunningServer, cookie: string, body: unknown) =>
  fetch(`${server.url}/api/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  })

describe('with FARM_TIME_ZONE=Pacific/Auckland', () => {
  it('shows a lead of Sunday 23:30 UTC at Monday’s local time on its card, and counts it in Monday’s week', async () => {
    const server = await serve({ env: { FARM_TIME_ZONE: auckland } })
    const at = lastSundayNight()
    const local = inAuckland(at)
    expect(local.weekday).toBe('Monday')
    const id = storeLead(server, 'Late Larry', at)

    // The API stays in UTC.
    const listed = (await (await fetch(`${server.url}/api/submissions`)).json()) as Submission[]
    expect(listed.find((lead) => lead.id === id)!.createdAt).toBe(new Date(at).toISOString())
    expect(new Date(at).toISOString()).toMatch(/T23:30:00\.000Z$/)

    const inbox = await (await fetch(`${server.url}/farm-sales`)).text()
    expect(inbox).toContain(
      `<time dateTime="${new Date(at).toISOString()}" title="${local.shown} Auckland time" class="text-sm text-stone-600">${local.shown}</time>`,
    )
    expect(inbox).toContain('Times are Auckland time.')

    const figures = (await (await fetch(`${server.url}/api/insights`)).json()) as Insights
    expect(figures.timeZone).toBe(auckland)
    const monday = Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + 1)
    const mondayWeek = new Date(monday - local.offsetMs).toISOString()
    expect(mondayWeek).toMatch(/T1[12]:00:00\.000Z$/)
    expect(figures.leads.byWeek.find((week) => week.week === mondayWeek)).toMatchObject({ total: 1 })
    expect(figures.leads.total).toBe(1)
    for (const week of figures.leads.byWeek) expect(week.week).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/)

    const page = await (await fetch(`${server.url}/farm-sales/insights`)).text()
    expect(page).toContain('weeks start on Monday, Auckland time;')
    // The numbers' row of that week names its Monday, and holds the lead.
    expect(page).toMatch(new RegExp(`>${local.date}</a></t[hd]><td[^>]*>1</td>`))
  })

  it('mails the owner the lead’s local time, naming the clock', async () => {
    const mail = await startMailServer()
    mailServers.push(mail)
    const server = await serve({
      env: { FARM_TIME_ZONE: auckland, SMTP_URL: mail.url, NOTIFY_EMAIL: 'owner@farm.example' },
    })
    const posted = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ann Baker', email: 'ann@example.com', message: 'Two dozen eggs, please.' }),
    })
    const { data } = (await posted.json()) as { data: Submission }
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    expect(mail.mails[0]!.text).toContain(`When: ${inAuckland(Date.parse(data.createdAt)).shown} Auckland time\n`)
  })

  it('keeps the zone the environment sets: no sign-in changes it, nor the API (409)', async () => {
    const server = await serve({ env: { FARM_TIME_ZONE: auckland, OWNER_PASSWORD: password } })
    const cookie = await signInFrom(server, 'Europe/London')
    expect(await zoneOf(server, cookie)).toMatchObject({ value: auckland, source: 'environment' })
    expect((await patch(server, cookie, { FARM_TIME_ZONE: 'Europe/London' })).status).toBe(409)
  })
})

describe('a farm whose clock is not chosen yet', () => {
  it('takes the zone of the first sign-in from a browser, and never of a later one', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    // Without JavaScript the form sends no zone: nothing is chosen.
    const withoutScript = await signInFrom(server, null)
    expect(await zoneOf(server, withoutScript)).toMatchObject({ value: '', source: 'default' })
    // A name this machine does not know is not taken either.
    await signInFrom(server, 'Mars/Olympus_Mons')
    expect((await zoneOf(server, withoutScript)).value).toBe('')
    await signInFrom(server, auckland)
    expect(await zoneOf(server, withoutScript)).toMatchObject({ value: auckland, source: 'settings page' })
    await signInFrom(server, 'Europe/London')
    expect((await zoneOf(server, withoutScript)).value).toBe(auckland)
    expect(server.output()).toContain('the farm’s time zone is the browser’s of the first sign-in')
  })

  it('is changed on the settings page, counting the insights’ weeks again; a zone that is none is refused in words', async () => {
    const server = await serve({ env: { OWNER_PASSWORD: password } })
    const at = lastSundayNight()
    storeLead(server, 'Late Larry', at)
    const cookie = await signInAsOwner(server.url, password)
    const weekOfLead = async () =>
      (
        (await (await fetch(`${server.url}/api/insights`, { headers: { Cookie: cookie } })).json()) as Insights
      ).leads.byWeek.find((week) => week.total > 0)!.week
    // In UTC, Sunday night is still the week that began six days before.
    const sunday = new Date(at)
    const utcMonday = Date.UTC(sunday.getUTCFullYear(), sunday.getUTCMonth(), sunday.getUTCDate() - 6)
    expect(await weekOfLead()).toBe(new Date(utcMonday).toISOString())

    const refused = await postSettingsPage(server, cookie, {
      section: 'farm',
      intent: 'save',
      FARM_TIME_ZONE: '+13:00',
    })
    expect(refused.status).toBe(400)
    expect(refused.html).toContain(
      'Must be a time zone as computers name them, such as Europe/London or Pacific/Auckland, not &quot;+13:00&quot;',
    )
    const byApi = await patch(server, cookie, { FARM_TIME_ZONE: 'Mars/Olympus_Mons' })
    expect(byApi.status).toBe(400)
    expect(await byApi.json()).toMatchObject({
      fields: {
        FARM_TIME_ZONE:
          'Must be a time zone as computers name them, such as Europe/London or Pacific/Auckland, not "Mars/Olympus_Mons"',
      },
    })
    expect((await zoneOf(server, cookie)).value).toBe('')

    const saved = await postSettingsPage(server, cookie, { section: 'farm', intent: 'save', FARM_TIME_ZONE: auckland })
    expect(saved.status).toBe(303)
    expect((await zoneOf(server, cookie)).value).toBe(auckland)
    const local = inAuckland(at)
    const monday = Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + 1)
    await expect.poll(weekOfLead).toBe(new Date(monday - local.offsetMs).toISOString())
    expect(server.output()).toContain('counted the weeks on the farm’s clock')
  })
})
