import type { Log } from '#app/log'

const dayMs = 24 * 60 * 60 * 1000

/**
 * Deletes what is kept no longer, now and once a day, with a log line of how many: spam after
 * SPAM_RETENTION_DAYS (kept a while so the owner can rescue a real message), and handled
 * submissions after HANDLED_RETENTION_DAYS when that is set (by default they are kept for good).
 */
export function startRetention({
  inbox,
  spamDays,
  handledDays,
  log,
  now = Date.now,
}: {
  /** The inbox's deletes (app/inbox/inbox.server.ts), each answering how many went. */
  inbox: { purgeSpam(before: Date): Promise<number>; purgeHandled(before: Date): Promise<number> }
  /** SPAM_RETENTION_DAYS now. */
  spamDays: () => number
  /** HANDLED_RETENTION_DAYS now; null keeps them for good. */
  handledDays: () => number | null
  log: Log
  now?: () => number
}) {
  async function purge() {
    const spam = spamDays()
    const handled = handledDays()
    try {
      const purged = await inbox.purgeSpam(new Date(now() - spam * dayMs))
      log.info({ purged, olderThanDays: spam }, 'purged old spam')
      if (handled !== null) {
        const deleted = await inbox.purgeHandled(new Date(now() - handled * dayMs))
        log.info({ deleted, olderThanDays: handled }, 'deleted handled submissions past their retention')
      }
    } catch (error) {
      log.error({ err: error }, 'could not delete old submissions')
    }
  }
  const done = purge()
  const daily = setInterval(() => void purge(), dayMs)
  daily.unref()
  return { done, stop: () => clearInterval(daily) }
}
