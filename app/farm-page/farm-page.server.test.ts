import english from '#app/language/compiled/en'
import { openingLineIn } from './opening-words'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { createActivityLog } from '#app/team/activity.server'
import { migrationsFolder } from '#tests/support/database'
import { quietLog } from '#tests/support/quiet-log'
import { tempDatabasePath } from '#tests/support/server'
import { createFarmPage } from './farm-page.server'
import type { PageWords } from './page-words'
import { defaultWords } from './page-words.server'

const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

function farmPage(now?: () => number) {
  const database = openDatabase(tempDatabasePath(), migrationsFolder)
  opened.push(database)
  const activity = createActivityLog({
    db: database.db,
    writes: database.writes,
    hashOfAddress: () => 'hash',
    keepDays: () => 30,
  })
  const page = createFarmPage({ db: database.db, writes: database.writes, activity, log: quietLog, now })
  return { page, activity }
}

const welcoming = (welcome: string): PageWords => ({ ...defaultWords, welcome })
const owner = { by: null, address: '192.0.2.7' }

describe('the farm’s page, in three versions', () => {
  it('is the spec’s texts until something is published', () => {
    const { page } = farmPage()
    expect(page.published()).toEqual(defaultWords)
    expect(page.versions()).toEqual({ draft: null, published: null, previous: null })
  })

  it('keeps a draft apart from what visitors read, until it is published', async () => {
    const { page } = farmPage()
    await page.saveDraft(welcoming('Hello from'), owner)
    expect(page.published().welcome).toBe('Welcome to')
    expect(page.versions().draft!.words.welcome).toBe('Hello from')
    await page.publish(welcoming('Hello from'), owner)
    expect(page.published().welcome).toBe('Hello from')
    expect(page.versions().draft).toBeNull()
  })

  it('restores the version published before in one step, and a second restore undoes it', async () => {
    const { page } = farmPage()
    await page.publish(welcoming('First'), owner)
    await page.publish(welcoming('Second'), owner)
    expect(await page.restorePrevious(owner)).toEqual({ ok: true })
    expect(page.published().welcome).toBe('First')
    expect(page.versions().previous!.words.welcome).toBe('Second')
    await page.restorePrevious(owner)
    expect(page.published().welcome).toBe('Second')
  })

  it('reads the published words again after each publish and restore, even within one millisecond', async () => {
    // Each lead's analysis asks for them, so they are kept between changes: a frozen clock gives every change the same time.
    const { page } = farmPage(() => Date.UTC(2026, 5, 1, 9))
    await page.publish(welcoming('First'), owner)
    expect(page.published().welcome).toBe('First')
    await page.publish(welcoming('Second'), owner)
    expect(page.published().welcome).toBe('Second')
    await page.restorePrevious(owner)
    expect(page.published().welcome).toBe('First')
    await page.restorePrevious(owner)
    expect(page.published().welcome).toBe('Second')
  })

  it('refuses a restore with nothing before, and a discard with no draft', async () => {
    const { page } = farmPage()
    expect(await page.restorePrevious(owner)).toMatchObject({ ok: false, status: 409 })
    expect(await page.discardDraft(owner)).toMatchObject({ ok: false, status: 409 })
    await page.publish(welcoming('Only'), owner)
    expect(await page.restorePrevious(owner)).toMatchObject({ ok: false, status: 409 })
  })

  it('writes each change in the activity log, newest first, with where it came from', async () => {
    const { page, activity } = farmPage()
    await page.saveDraft(welcoming('Draft'), owner)
    await page.discardDraft(owner)
    await page.publish(welcoming('First'), owner)
    await page.publish(welcoming('Second'), owner)
    await page.restorePrevious(owner)
    expect(activity.page(null).entries.map(({ kind, detail, address }) => ({ kind, detail, address }))).toEqual(
      [
        'Restored the farm’s page as it was published before',
        'Published the farm’s page',
        'Published the farm’s page',
        'Discarded the draft of the farm’s page',
        'Saved a draft of the farm’s page',
      ].map((detail) => ({ kind: 'farm-page', detail, address: '192.0.2.7' })),
    )
  })

  it('says what visitors see now: the opening line and what search engines read', async () => {
    const { page } = farmPage()
    const open = { opens: '00:00', closes: '23:59' }
    await page.publish({ ...defaultWords, hours: { week: Array(7).fill(open), exceptions: [] } }, owner)
    const view = page.forVisitors({ name: 'Bramble Hill Farm', timeZone: 'Europe/London' }, 'https://bramble.example/')
    expect(openingLineIn(english, 'en', view.opening)).toMatch(/^(Open now until 23:59|Opens tomorrow at 0:00)$/)
    expect(view.seo.canonical).toBe('https://bramble.example/')
    expect(view.seo.jsonLd).toMatchObject({
      '@type': 'LocalBusiness',
      name: 'Bramble Hill Farm',
      url: 'https://bramble.example/',
    })
  })
})
