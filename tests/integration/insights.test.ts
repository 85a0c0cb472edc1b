// The insights page and its API on the real server, over a season of known leads, replies,
// subscribers and an update seeded at known times before now (tests/support/season.ts; the
// figures week by week, on a fixed clock, are app/insights/insights.server.test.ts's).
import { beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#app/data/database.server'
import { createInsights } from '#app/insights/insights.server'
import type { Insights } from '#app/insights/insights'
import { weekOf } from '#app/clock/farm-clock'
import { createUpdates } from '#app/updates/updates.server'
import { migrationsFolder } from '#tests/support/database'
import { rawRequest } from '#tests/support/raw-request'
import { insightCharts, seasonUpdate, seedSeason } from '#tests/support/season'
import { seoSpam } from '#tests/support/seed'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'
import { addPerson, fromSomewhere, signInAs } from '#tests/support/team'

const answered = (figures: Insights) => figures.answers.byWeek.reduce((sum, week) => sum + week.answered, 0)

/** What the service reads from the same file at the moment the server answered: the API must say the same. */
function figuresOf(databasePath: string, asOf: string, weeks: 4 | 12 | 52, timeZone = 'UTC') {
  const database = openDatabase(databasePath, migrationsFolder)
  try {
    const updates = createUpdates({ db: database.db, writes: database.writes, products: () => [], queued: () => {} })
    return createInsights({
      db: database.db,
      now: () => Date.parse(asOf),
      timeZone: () => timeZone,
      updateReports: updates.reportsSince,
    }).figures(weeks)
  } finally {
    database.close()
  }
}

describe('the insights, with the inbox open (the shipped default: no OWNER_PASSWORD)', () => {
  let server: RunningServer
  const databasePath = tempDatabasePath()
  const serve = serverPerFile()
  beforeAll(async () => {
    openDatabase(databasePath, migrationsFolder).close()
    seedSeason(databasePath, Date.now())
    server = await serve({ databasePath })
  })

  it('answers GET /api/insights with the season’s figures: 12 weeks unless asked, spam never counted', async () => {
    const answer = await fetch(`${server.url}/api/insights`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const figures = (await answer.json()) as Insights
    expect(figures.weeks).toBe(12)
    expect(figures.leads.byWeek).toHaveLength(12)
    expect(Date.parse(figures.since)).toBe(weekOf(Date.parse(figures.asOf), 'UTC') - 11 * 7 * 24 * 60 * 60 * 1000)
    // a to j but d (spam); k came 328 days ago.
    expect(figures.leads.total).toBe(9)
    expect(figures.products.map(({ product, count, before }) => [product, count, before])).toEqual([
      ['eggs', 5, 0],
      ['honey', 2, 0],
    ])
    expect(answered(figures)).toBe(4)
    expect(figures.answers.waiting.map((age) => age.count)).toEqual([1, 1, 2])
    expect(figures.subscribers.now).toBe(2)
    const sum = (key: 'joined' | 'left' | 'bounced') => figures.subscribers.byWeek.reduce((n, week) => n + week[key], 0)
    expect([sum('joined'), sum('left'), sum('bounced')]).toEqual([3, 1, 1])
    expect(figures.updates).toMatchObject([
      { subject: seasonUpdate.subject, recipients: 4, sent: 2, failed: 1, bounced: 1, unsubscribed: 1, complained: 1 },
    ])
    expect(figures).toEqual(figuresOf(databasePath, figures.asOf, 12))
  })

  it('answers each range offered, and 400 in the one error shape for any other, changing nothing', async () => {
    for (const weeks of [4, 52] as const) {
      const figures = (await (await fetch(`${server.url}/api/insights?weeks=${weeks}`)).json()) as Insights
      expect(figures.leads.byWeek).toHaveLength(weeks)
      expect(figures).toEqual(figuresOf(databasePath, figures.asOf, weeks))
    }
    for (const query of ['weeks=5', 'weeks=12&weeks=4', 'weeks=012', 'weeks=', 'weeks=a%20year']) {
      const answer = await fetch(`${server.url}/api/insights?${query}`)
      expect(answer.status, query).toBe(400)
      expect(await answer.json()).toEqual({ error: 'The "weeks" parameter must be given once, as one of 4, 12, 52.' })
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await fetch(`${server.url}/api/insights?weeks=4`, { method })
      expect(answer.status, method).toBe(405)
      expect(answer.headers.get('allow')).toBe('GET, HEAD')
      expect(await answer.json()).toEqual({ error: `${method} is not allowed here.` })
    }
  })

  it('links each chart to the inbox showing those leads', async () => {
    const figures = (await (await fetch(`${server.url}/api/insights?weeks=4`)).json()) as Insights
    const listed = async (link: string | null) => {
      if (link === null) throw new Error('a chart with leads gave no link to them')
      const answer = await fetch(`${server.url}${link.replace('/farm-sales', '/api/submissions')}`)
      expect(answer.status, link).toBe(200)
      return ((await answer.json()) as Array<{ name: string }>).map((lead) => lead.name).sort()
    }
    const [under, days, longer] = figures.answers.waiting
    expect(await listed(under!.inbox)).toEqual(['Lead a'])
    expect(await listed(days!.inbox)).toEqual(['Lead b'])
    expect(await listed(longer!.inbox)).toEqual(['Lead h', 'Lead i'])
    for (const week of figures.leads.byWeek.filter((row) => row.inbox !== null)) {
      expect((await listed(week.inbox!)).length, week.week).toBe(week.total)
    }
    expect(await listed(figures.products.find((row) => row.product === 'honey')!.inbox)).toEqual(['Lead b', 'Lead f'])
    expect(await listed(figures.leads.byIntent.wholesale!.inbox!)).toEqual(['Lead c', 'Lead e'])
  })

  it('draws the page on the server: titles, summaries, SVG pictures and tables, no chart script', async () => {
    const answer = await fetch(`${server.url}/farm-sales/insights`)
    expect(answer.status).toBe(200)
    const html = await answer.text()
    for (const title of insightCharts) {
      expect(html).toContain(`>${title}</h2>`)
    }
    expect(html).toContain('9 leads in the last 12 weeks')
    expect(html).toContain('eggs: 5, up from 0')
    expect(html).toContain('4 leads wait for an answer: 1 under a day, 1 from 1 to 3 days and 2 longer.')
    expect(html).toContain('2 subscribers now. In the last 12 weeks, 3 joined, 1 left and 1 bounced.')
    expect(html).toContain('Sent 2 of 4, failed 1, bounced 1, unsubscribed 1, complained 1')
    // The three column charts are pictures with names; a bar beside the words that give its number is hidden.
    expect(html.match(/<svg role="img" aria-label="[^"]+"/g)).toHaveLength(3)
    expect(
      html.match(/<summary[^>]*>Show the numbers<span class="sr-only">: (?:<!-- -->)?[^<]+<\/span><\/summary>/g),
    ).toHaveLength(insightCharts.length)
    expect(html).toContain('aria-current="page"')
    // The bars are in the HTML as it is sent: drawn on the server, not by a script in the browser.
    expect(html.match(/<rect [^>]*height="[\d.]+"/g)!.length).toBeGreaterThan(20)
  })

  it('falls back to 12 weeks on the page for a range not offered, and says so', async () => {
    const html = await (await fetch(`${server.url}/farm-sales/insights?weeks=5`)).text()
    expect(html).toContain('There is no such range: showing 12 weeks. Choose 4 weeks, 12 weeks or a year.')
    expect(html).toContain('9 leads in the last 12 weeks')
    const year = await (await fetch(`${server.url}/farm-sales/insights?weeks=52`)).text()
    expect(year).toContain('10 leads in the last year')
    expect(year).not.toContain('There is no such range')
  })

  it('counts a lead sent through the API once it is stored, and never one set aside as spam', async () => {
    const before = (await (await fetch(`${server.url}/api/insights?weeks=4`)).json()) as Insights
    const sent = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Nia Brook', email: 'nia@example.com', message: 'Do you have eggs this week?' }),
    })
    expect(sent.status).toBe(201)
    const spam = await fetch(`${server.url}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(seoSpam),
    })
    expect(spam.status).toBe(202)
    const after = (await (await fetch(`${server.url}/api/insights?weeks=4`)).json()) as Insights
    expect(after.leads.total).toBe(before.leads.total + 1)
    expect(after.answers.waiting[0]!.count).toBe(before.answers.waiting[0]!.count + 1)
  })
})

describe('the insights, with a team', () => {
  const ownerPassword = 'the owner’s long password'
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve({ env: { OWNER_PASSWORD: ownerPassword, TRUST_PROXY: 'loopback' } })
  })

  it('is for a signed-in owner: 401 or the sign-in page for a stranger, 403 for a helper, saying the role', async () => {
    expect((await rawRequest(server.url, { path: '/api/insights', method: 'GET' })).status).toBe(401)
    const page = await rawRequest(server.url, { path: '/farm-sales/insights?weeks=4', method: 'GET' })
    expect(page.status).toBe(302)
    expect(page.headers.location).toBe('/sign-in?redirectTo=%2Ffarm-sales%2Finsights%3Fweeks%3D4')
    const owner = await signInAs(server.url, '', ownerPassword)
    const helper = await addPerson(server.url, owner, { name: 'Sam Field', email: 'sam@farm.example', role: 'helper' })
    const api = await rawRequest(server.url, { path: '/api/insights', method: 'GET', headers: { Cookie: helper } })
    expect(api.status).toBe(403)
    expect(JSON.parse(api.text)).toEqual({
      error: 'Only an owner may read the insights; you are signed in as a helper.',
    })
    const refused = await rawRequest(server.url, {
      path: '/farm-sales/insights',
      method: 'GET',
      headers: { Cookie: helper, ...fromSomewhere() },
    })
    expect(refused.status).toBe(403)
    expect(refused.text).toContain('This page is for owners')
    const mine = await rawRequest(server.url, {
      path: '/api/insights?weeks=52',
      method: 'GET',
      headers: { Cookie: owner },
    })
    expect(mine.status).toBe(200)
    expect(JSON.parse(mine.text)).toMatchObject({ weeks: 52, leads: { total: 0 } })
    // A farm with nothing yet: each chart says so in words, with no blank picture.
    const empty = await rawRequest(server.url, {
      path: '/farm-sales/insights',
      method: 'GET',
      headers: { Cookie: owner },
    })
    expect(empty.status).toBe(200)
    expect(empty.text).toContain('No leads in the last 12 weeks.')
    expect(empty.text).toContain('No lead waits for an answer.')
    expect(empty.text).not.toContain('<svg role="img"')
    const inbox = await rawRequest(server.url, { path: '/farm-sales', method: 'GET', headers: { Cookie: helper } })
    expect(inbox.text).not.toContain('/farm-sales/insights')
  })
})
