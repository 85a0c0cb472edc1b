import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { claimLinks } from '#app/data/schema'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { createClaimLinks } from './claim-link.server'

const hourMs = 60 * 60 * 1000
const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

function linksAt() {
  const database = openDatabase(tempDatabasePath(), migrationsFolder)
  opened.push(database)
  const clock = { at: Date.UTC(2026, 10, 28, 9) }
  return { links: createClaimLinks(database.db, () => clock.at), clock, db: database.db }
}

describe('the link that claims the site', () => {
  it('works for an hour, and not a moment after', () => {
    const { links, clock } = linksAt()
    const token = links.make()
    clock.at += hourMs - 1
    expect(links.good(token)).toBe(true)
    clock.at += 1
    expect(links.good(token)).toBe(false)
  })

  it('is replaced by the next one made, keeps only a hash, and is gone once used', () => {
    const { links, db } = linksAt()
    const first = links.make()
    const second = links.make()
    expect(links.good(first)).toBe(false)
    expect(links.good(second)).toBe(true)
    const rows = db.select().from(claimLinks).all()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(second)
    links.usedUp()
    expect(links.good(second)).toBe(false)
  })

  it('refuses what is not a link’s shape, however close', () => {
    const { links } = linksAt()
    const token = links.make()
    for (const other of [
      token.toLowerCase() === token ? `${token}A` : token.toLowerCase(),
      `${token} `,
      token.slice(1),
      '',
      `${token}%2D`,
    ]) {
      expect(links.good(other), other).toBe(false)
    }
  })
})
