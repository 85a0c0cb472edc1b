import type { Log } from '#app/log'
import type { SubmissionsService } from './service.server'

/** Every few seconds, reads again the messages stored without an analysis whose time has come. */
export function startReadingAgain({
  submissions,
  log,
  everyMs = 5_000,
}: {
  submissions: SubmissionsService
  log: Log
  everyMs?: number
}) {
  let reading = false
  const timer = setInterval(async () => {
    if (reading) return
    reading = true
    try {
      const read = await submissions.readAgainDue()
      if (read > 0) log.info({ read }, 'read again messages stored without an analysis')
    } catch (error) {
      log.error({ err: error }, 'could not read again the messages stored without an analysis')
    } finally {
      reading = false
    }
  }, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
