import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { activityPageSize, createActivityLog } from './activity.server'

const dayMs = 24 * 60 * 60 * 1000
const opened: OpenDatabase[] = []
afterEach(() => {
  for (const database of opened.splice(0)) database.close()
})

function logAt(keepDays: number) {
  const database = openDatabase(tempDatabasePath(), migrationsFolder)
  opened.push(database)
  const clock = { at: Date.UTC(2026, 10, 1) }
  const log = createActivityLog({
    db: database.db,
    writes: database.writes,
    hashOfAddress: (address) => `hash-of-${address.length}`,
    keepDays: () => keepDays,
    now: () => clock.at,
  })
  return { log, clock }
}

describe('the activity log', () => {
  it('keeps what was done for the days set, swept as new entries come', async () => {
    const { log, clock } = logAt(30)
    await log.record({ kind: 'export', by: 1, detail: 'Exported the inbox as CSV' })
    clock.at += 29 * dayMs
    await log.record({ kind: 'backup-download', by: 1, detail: 'Downloaded a backup' })
    expect(log.page(null).entries.map((entry) => entry.kind)).toEqual(['backup-download', 'export'])
    clock.at += 2 * dayMs
    await log.record({ kind: 'delete', by: 1, detail: 'Deleted submission 4' })
    expect(log.page(null).entries.map((entry) => entry.kind)).toEqual(['delete', 'backup-download'])
  })

  it('names a visitor only by the hash it is given, and reads a page at a time, newest first', async () => {
    const { log } = logAt(365)
    await log.record({ kind: 'forget', by: null, detail: 'Forgot a person', about: 'vera@visitor.example' })
    for (let n = 0; n < activityPageSize + 3; n += 1)
      await log.record({ kind: 'export', by: null, detail: `Export ${n}` })
    const first = log.page(null)
    expect(first.entries).toHaveLength(activityPageSize)
    expect(first.entries[0]).toMatchObject({
      detail: `Export ${activityPageSize + 2}`,
      who: 'The command line',
    })
    const second = log.page(first.next)
    expect(second.next).toBeNull()
    expect(second.entries.at(-1)).toMatchObject({ kind: 'forget', subjectHash: 'hash-of-20' })
    expect(JSON.stringify([...first.entries, ...second.entries])).not.toContain('vera')
  })
})
