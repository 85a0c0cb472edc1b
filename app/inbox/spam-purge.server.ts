import type { Log } from '#app/log'
import type { Inbox } from './inbox.server'

const dayMs = 24 * 60 * 60 * 1000

/** Deletes spam older than the retention, now and once a day; the log says how many. */
export function startSpamPurge({
  inbox,
  retentionDays,
  log,
  now = Date.now,
}: {
  inbox: Inbox
  retentionDays: number
  log: Log
  now?: () => number
}) {
  async function purge() {
    try {
      const purged = await inbox.purgeSpam(new Date(now() - retentionDays * dayMs))
      log.info({ purged, olderThanDays: retentionDays }, 'purged old spam')
    } catch (error) {
      log.error({ err: error }, 'could not purge old spam')
    }
  }
  void purge()
  const daily = setInterval(() => void purge(), dayMs)
  daily.unref()
  return { stop: () => clearInterval(daily) }
}
