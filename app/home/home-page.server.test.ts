import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Sqlite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { latestHomePage, type HomePageSources } from './home-page.server'

function setUp() {
  const path = join(mkdtempSync(join(tmpdir(), 'home-page-')), 'farm.db')
  const sqlite = new Sqlite(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.exec('CREATE TABLE words (text TEXT)')
  let reads = 0
  let clock = Date.UTC(2026, 5, 13, 9, 0, 0)
  const farmPage: HomePageSources['farmPage'] = {
    forVisitors: () => {
      reads++
      return { words: sqlite.prepare('SELECT text FROM words').pluck().all() } as never
    },
  }
  const sources: HomePageSources = {
    farm: { name: 'Willow Creek Farm', product: 'Seasonal Produce', timeZone: 'UTC', languages: ['en'] },
    farmPage,
    week: { list: { shown: () => ({ items: [], changedAt: null }) } as never, offers: () => [] },
    photos: { shown: () => [] },
    asking: false,
    siteUrl: null,
  }
  const read = latestHomePage(sqlite, () => clock)
  return {
    sqlite,
    path,
    sources,
    read,
    reads: () => reads,
    later: (ms: number) => void (clock += ms),
  }
}

describe('the home page’s data, read again only on a change', () => {
  it('is read once while nothing changes within the minute', () => {
    const site = setUp()
    const first = site.read(site.sources)
    expect(site.read(site.sources)).toBe(first)
    site.later(59_000)
    expect(site.read(site.sources)).toBe(first)
    expect(site.reads()).toBe(1)
  })

  it('is read again after a write on this connection, a commit on another, or a new minute', () => {
    const site = setUp()
    site.read(site.sources)
    site.sqlite.prepare('INSERT INTO words VALUES (?)').run('Strawberries are ready')
    expect(site.read(site.sources)).toMatchObject({ page: { words: ['Strawberries are ready'] } })
    const other = new Sqlite(site.path)
    other.prepare('INSERT INTO words VALUES (?)').run('Closed 24–26 December')
    other.close()
    expect(site.read(site.sources)).toMatchObject({
      page: { words: ['Strawberries are ready', 'Closed 24–26 December'] },
    })
    site.later(60_000)
    site.read(site.sources)
    expect(site.reads()).toBe(4)
  })

  it('is read again for another farm name or clock', () => {
    const site = setUp()
    site.read(site.sources)
    const renamed = site.read({ ...site.sources, farm: { ...site.sources.farm, name: 'Hazel Brook Farm' } })
    expect(renamed.farm.name).toBe('Hazel Brook Farm')
    site.read({ ...site.sources, farm: { ...site.sources.farm, timeZone: 'Europe/London' } })
    expect(site.reads()).toBe(3)
  })
})
