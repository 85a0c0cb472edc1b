import { join } from 'node:path'
import type { FarmDatabase, OpenDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Log } from '#app/log'
import { copyInProcess, createBackups } from './backups.server'
import { createBucketCopies } from './bucket-copies.server'
import { bucketKeys } from './bucket-key.server'
import type { BucketSettings } from './bucket.server'
import { createErasureList } from './erasures.server'
import { createPeople } from './people.server'
import { startRetention } from './retention.server'

/** BACKUP_*, SPAM_RETENTION_DAYS, HANDLED_RETENTION_DAYS, and the site's address for a person's export. */
export interface DataLifecycleSettings {
  backups: { keep: number; everyMs: number; bucket: BucketSettings | null; sealKey: Buffer | null }
  /** The first retry's wait (NOTIFY_RETRY_SECONDS): the bucket's copies are tried again as deliveries are. */
  retryBaseMs: number
  spamRetentionDays: number
  handledRetentionDays: number | null
  siteUrl: string | null
}

/**
 * The data's years, started: the people a restored backup still holds are forgotten again at
 * once (before anything owed about them could go out), then backups and retention run on their
 * own timers.
 */
export function startDataLifecycle({
  db,
  sqlite,
  writes,
  events,
  inbox,
  databasePath,
  backupsDir,
  settings,
  copierUrl,
  log,
}: {
  db: FarmDatabase
  sqlite: OpenDatabase['sqlite']
  writes: Writes
  events: SubmissionEvents
  inbox: Parameters<typeof startRetention>[0]['inbox']
  databasePath: string
  /** Where backups are kept (BACKUP_DIR, read at start). */
  backupsDir: string
  /** The settings now: intervals, counts and days follow their changes. */
  settings: () => DataLifecycleSettings
  /** The backup copier's module: compiled beside the server, or its TypeScript through tsx in development. */
  copierUrl: URL
  log: Log
}) {
  const erasureList = createErasureList({
    db,
    file: join(backupsDir, 'erasures.jsonl'),
    log,
  })
  if (erasureList.unreadable > 0) {
    log.warn({ lines: erasureList.unreadable, dir: backupsDir }, 'skipped unreadable lines of erasures.jsonl')
  }
  const people = createPeople({
    db,
    sqlite,
    writes,
    events,
    erasureList,
    siteUrl: () => settings().siteUrl,
    log,
  })
  people.keyMailboxesInOneForm()
  const forgottenAgain = people.reapplyErasures()
  if (forgottenAgain > 0) {
    log.warn({ people: forgottenAgain }, 'forgot again people erased after this database was backed up')
  }
  const keys = bucketKeys(db, () => settings().backups.sealKey)
  const offsite = createBucketCopies({
    dir: backupsDir,
    keep: () => settings().backups.keep,
    bucket: () => settings().backups.bucket,
    sealKey: keys.sealKey,
    retryBaseMs: settings().retryBaseMs,
    log,
  })
  const backups = createBackups({
    databasePath,
    dir: backupsDir,
    keep: () => settings().backups.keep,
    everyMs: () => settings().backups.everyMs,
    runCopy: copyInProcess(copierUrl),
    // Off the backup's own path: the next backup never waits for the bucket.
    afterEach: () => void offsite.copyNow(),
    log,
  })
  const retention = startRetention({
    inbox,
    spamDays: () => settings().spamRetentionDays,
    handledDays: () => settings().handledRetentionDays,
    log,
  })
  backups.start()
  offsite.start()
  return {
    people,
    backups,
    /** The backups' copies in the owner's bucket, and the key they are sealed with. */
    offsite: {
      state: offsite.state,
      report: offsite.report,
      test: offsite.test,
      hasKey: () => keys.sealKey() !== null,
      /** Makes the key when there is none (its text, shown once), and copies what waited for it. */
      makeKeyOnce() {
        const made = keys.makeOnce()
        if (made) void offsite.copyNow()
        return made
      },
    },
    /**
     * After a change of the backups' settings: the next backup follows the new interval, and the
     * bucket (new or changed) is given what it lacks (retention reads its days each day).
     */
    backupsChanged() {
      backups.rescheduled()
      void offsite.copyNow()
    },
    async stop() {
      retention.stop()
      people.stop()
      await Promise.all([backups.stop(), offsite.stop()])
    },
  }
}

export type Offsite = ReturnType<typeof startDataLifecycle>['offsite']
