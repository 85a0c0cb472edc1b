import type { FarmDatabase, OpenDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import type { ErasureList } from './erasures.server'
import { createForgetting, createForgottenChecks } from './forgetting.server'
import { createPersonExport } from './person-export.server'
import { keyMailboxesInOneForm } from './person-rows.server'

/**
 * One person, by their email address: everything the site holds about them, to give them on
 * request, and their erasure (the right to be forgotten), which removes every row about them in
 * one transaction and leaves only a salted hash of the address to say it was done.
 */
export function createPeople({
  db,
  sqlite,
  writes,
  events,
  erasureList,
  siteUrl,
  log,
  now = Date.now,
}: {
  db: FarmDatabase
  sqlite: OpenDatabase['sqlite']
  writes: Writes
  events: SubmissionEvents
  erasureList: ErasureList
  /** PUBLIC_URL, which the pushes' addresses begin with. */
  /** PUBLIC_URL now, for the links in a person's export. */
  siteUrl: () => string | null
  log: Log
  now?: () => number
}) {
  return {
    exportOf: createPersonExport({ db, siteUrl, now }),
    /** The erasure list's salted hash of an address: how the activity log names a visitor. */
    hashOfAddress: erasureList.hashOfAddress,
    ...createForgetting({ db, sqlite, writes, events, erasureList, log, now }),
    keyMailboxesInOneForm: () => keyMailboxesInOneForm(sqlite),
    ...createForgottenChecks({ db, erasureList }),
  }
}

export type People = ReturnType<typeof createPeople>
