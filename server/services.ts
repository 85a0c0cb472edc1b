import { createAnalyser } from '#app/analysis/analyser.server'
import { createLlmReader } from '#app/analysis/llm.server'
import { createReadingPool } from '#app/analysis/reading-pool.server'
import { openDatabase } from '#app/data/database.server'
import { createCsvExports } from '#app/inbox/csv-export.server'
import { createInbox } from '#app/inbox/inbox.server'
import { startSpamPurge } from '#app/inbox/spam-purge.server'
import { createRateLimit } from '#app/limits/rate-limit.server'
import { SubmissionEvents } from '#app/live/events.server'
import { createOutboxSender } from '#app/outbox/outbox.server'
import { createOwnerAccess } from '#app/owner/owner-access.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { startReadingAgain } from '#app/submissions/read-again.server'
import { createSpamTraps } from '#app/submissions/spam-traps.server'
import type { Config } from './config'
import { log } from './log'

/**
 * Builds every service once, in the order they need each other, and starts their jobs
 * (the outbox's sender, the spam purge). Remix gets them through the load context; the
 * HTTP pipeline and the live relay through the composition root.
 */
export async function buildServices(config: Config) {
  const database = openDatabase(config.databasePath, config.migrationsFolder)
  const events = new SubmissionEvents()
  const analysisLog = log.child({ part: 'analysis' })
  const reader = createReadingPool({
    // Built (`npm run build`), the worker is compiled beside this file; run from source (`npm run
    // dev`), a small module loads its TypeScript through tsx.
    workerUrl: import.meta.url.endsWith('.ts')
      ? new URL('../app/analysis/offline-worker.mjs', import.meta.url)
      : new URL('offline-worker.js', import.meta.url),
    workerData: { products: config.farmProducts },
    budgetMs: config.analysisTimeoutMs,
    onReplaced: (reason) => analysisLog.warn({ reason }, 'started a fresh message reader'),
  })
  const analyse = createAnalyser({
    readOffline: reader.read,
    readWithLlm: config.llm
      ? createLlmReader(
          config.llm,
          config.farmProducts.map((product) => product.name),
        )
      : undefined,
    log: analysisLog,
  })
  const submissions = createSubmissionsService({
    db: database.db,
    events,
    analyse,
    writes: database.writes,
    mailsOwner: config.notify !== null,
  })
  const inbox = createInbox({ db: database.db, events, writes: database.writes })
  const outbox = config.notify
    ? createOutboxSender({
        db: database.db,
        events,
        settings: config.notify,
        log: log.child({ part: 'mail' }),
        writes: database.writes,
      })
    : null
  if (outbox) outbox.start()
  else log.info({}, 'SMTP_URL or NOTIFY_EMAIL is not set: the owner is not mailed about new leads')
  const readingAgain = startReadingAgain({ submissions, log: analysisLog })
  const spamPurge = startSpamPurge({ inbox, retentionDays: config.spamRetentionDays, log })
  const owner = await createOwnerAccess({
    db: database.db,
    password: config.ownerPassword,
    sessionSecret: config.sessionSecret,
    writes: database.writes,
  })
  // From here on the password lives only as its scrypt hash; child processes and workers never see it.
  delete process.env.OWNER_PASSWORD
  if (!owner.required && config.mode === 'production') {
    log.warn({}, 'OWNER_PASSWORD is not set: anyone can read the submissions at /farm-sales')
  }

  return {
    database,
    events,
    submissions,
    inbox,
    csvExports: createCsvExports({ inbox, mostAtOnce: config.exportsAtOnce }),
    /** Null unless the owner is mailed about leads. */
    outbox,
    owner,
    spamTraps: createSpamTraps({ secret: config.sessionSecret, minFillSeconds: config.minFillSeconds }),
    limits: {
      submissions: createRateLimit({ limit: config.submissionsPerMinute, windowMs: 60_000 }),
      signIns: createRateLimit({ limit: 5, windowMs: 60_000 }),
    },
    farm: { name: config.farmName, product: config.farmProduct },
    log,
    /** Ends the jobs and workers; the database is closed last, by whoever stops the server. */
    stop() {
      outbox?.stop()
      spamPurge.stop()
      readingAgain.stop()
      void reader.close()
    },
  }
}

export type Services = Awaited<ReturnType<typeof buildServices>>
