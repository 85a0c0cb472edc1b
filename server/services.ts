import { createAnalyser } from '#app/analysis/analyser.server'
import { createLlmReader } from '#app/analysis/llm.server'
import { createReadingPool } from '#app/analysis/reading-pool.server'
import { openDatabase } from '#app/data/database.server'
import { createCsvExports } from '#app/inbox/csv-export.server'
import { createInbox } from '#app/inbox/inbox.server'
import { createDeliveryEngine } from '#app/delivery/engine.server'
import { createRateLimit } from '#app/limits/rate-limit.server'
import { SubmissionEvents } from '#app/live/events.server'
import { createOutboxSender } from '#app/owner-mail/owner-mail-sender.server'
import { createOwnerAccess } from '#app/owner/owner-access.server'
import { createAcknowledgements } from '#app/replies/acknowledgement.server'
import { createReplies } from '#app/replies/replies.server'
import { createReplyDelivery } from '#app/replies/reply-delivery.server'
import { createSignedLinks } from '#app/updates/signed-links.server'
import { createSubscribers } from '#app/updates/subscribers.server'
import { createUpdateSender } from '#app/updates/update-sender.server'
import { createUpdates } from '#app/updates/updates.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { createWebhook } from '#app/webhook/webhook.server'
import { join } from 'node:path'
import { createPush } from '#app/push/push.server'
import { vapidKeys } from '#app/push/vapid.server'
import { startReadingAgain } from '#app/submissions/read-again.server'
import { createSpamTraps } from '#app/submissions/spam-traps.server'
import { copyInProcess, createBackups } from '#app/lifecycle/backups.server'
import { refuseDamagedDatabase } from '#app/lifecycle/database-health.server'
import { createErasureList } from '#app/lifecycle/erasures.server'
import { createPeople } from '#app/lifecycle/people.server'
import { startRetention } from '#app/lifecycle/retention.server'
import type { Config } from './config'
import { log } from './log'

/**
 * Builds every service once, in the order they need each other, and starts their jobs
 * (the outbox's sender, the spam purge). Remix gets them through the load context; the
 * HTTP pipeline and the live relay through the composition root.
 */
export async function buildServices(config: Config) {
  refuseDamagedDatabase(config.databasePath, config.backups.dir)
  const database = openDatabase(config.databasePath, config.migrationsFolder)
  const events = new SubmissionEvents()
  // Built (`npm run build`), the workers and the backup copier are compiled beside this file;
  // run from source (`npm run dev`), a small module loads each one's TypeScript through tsx.
  const fromSource = import.meta.url.endsWith('.ts')
  const dataLog = log.child({ part: 'data' })
  const erasureList = createErasureList({
    db: database.db,
    file: join(config.backups.dir, 'erasures.jsonl'),
    log: dataLog,
  })
  if (erasureList.unreadable > 0) {
    dataLog.warn(
      { lines: erasureList.unreadable, dir: config.backups.dir },
      'skipped unreadable lines of erasures.jsonl',
    )
  }
  const people = createPeople({
    database,
    writes: database.writes,
    events,
    erasureList,
    siteUrl: config.push.siteUrl,
    log: dataLog,
  })
  const forgottenAgain = people.reapplyErasures()
  if (forgottenAgain > 0) {
    dataLog.warn({ people: forgottenAgain }, 'forgot again people erased after this database was backed up')
  }
  const backups = createBackups({
    databasePath: config.databasePath,
    dir: config.backups.dir,
    keep: config.backups.keep,
    everyMs: config.backups.everyMs,
    runCopy: copyInProcess(
      fromSource
        ? new URL('../app/lifecycle/backup-copier.mjs', import.meta.url)
        : new URL('backup-copier.js', import.meta.url),
    ),
    log: dataLog,
  })
  const analysisLog = log.child({ part: 'analysis' })
  const reader = createReadingPool({
    workerUrl: fromSource
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
  const mailLog = log.child({ part: 'mail' })
  const deliveries = createDeliveryEngine({ log: log.child({ part: 'delivery' }) })
  const notify = config.notify
  const links =
    notify && config.updates ? createSignedLinks({ db: database.db, publicUrl: config.updates.publicUrl }) : null
  const subscribers = links
    ? createSubscribers({ db: database.db, writes: database.writes, links, farmName: config.farmName })
    : null
  const visitorMail = notify
    ? {
        from: notify.from,
        replyTo: notify.to[0]!,
        farmName: config.farmName,
        ...(links ? { confirmUrl: links.confirmUrl } : {}),
      }
    : null
  const outbox = notify
    ? createOutboxSender({
        engine: deliveries,
        db: database.db,
        settings: notify,
        log: mailLog,
        writes: database.writes,
      })
    : null
  if (notify) {
    createReplyDelivery({
      engine: deliveries,
      db: database.db,
      events,
      writes: database.writes,
      log: mailLog,
      smtpUrl: notify.smtpUrl,
      settings: visitorMail!,
      retryBaseMs: notify.retryBaseMs,
    })
  }
  const webhook = config.webhook
    ? createWebhook({
        engine: deliveries,
        db: database.db,
        writes: database.writes,
        log: log.child({ part: 'webhook' }),
        settings: config.webhook,
      })
    : null
  // Only a signed-in owner may have a phone told of leads, so only with OWNER_PASSWORD.
  const push =
    config.ownerPassword !== undefined && config.push.subject
      ? createPush({
          engine: deliveries,
          db: database.db,
          writes: database.writes,
          log: log.child({ part: 'push' }),
          settings: {
            keys: vapidKeys(database.db, config.push.keys),
            subject: config.push.subject,
            siteUrl: config.push.siteUrl,
            retryBaseMs: config.push.retryBaseMs,
          },
        })
      : null
  const submissions = createSubmissionsService({
    db: database.db,
    events,
    analyse,
    writes: database.writes,
    acknowledgements:
      notify && (config.visitorAck || subscribers)
        ? createAcknowledgements({
            db: database.db,
            farmName: config.farmName,
            from: notify.from,
            log: mailLog,
            acknowledging: config.visitorAck,
            consent: subscribers,
          })
        : null,
    leadQueues: [outbox, webhook, push].filter((queue) => queue !== null),
    owed: deliveries.owed,
  })
  const inbox = createInbox({ db: database.db, events, writes: database.writes })
  const updateMailSettings =
    notify && config.updates
      ? {
          smtpUrl: notify.smtpUrl,
          from: notify.from,
          owner: notify.to[0]!,
          farmName: config.farmName,
          siteUrl: config.updates.publicUrl,
          retryBaseMs: notify.retryBaseMs,
          perMinute: config.updates.perMinute,
        }
      : null
  const updateSender =
    links && updateMailSettings
      ? createUpdateSender({
          engine: deliveries,
          db: database.db,
          writes: database.writes,
          log: mailLog.child({ of: 'updates' }),
          links,
          settings: updateMailSettings,
        })
      : null
  const updates =
    links && subscribers && updateMailSettings && updateSender
      ? {
          subscribers,
          updates: createUpdates({
            db: database.db,
            writes: database.writes,
            products: config.farmProducts.map((product) => product.name),
            queued: updateSender.wake,
          }),
          links,
          settings: updateMailSettings,
          sendNow: updateSender.sendNow,
        }
      : null
  if (config.updates && config.updates.publicUrl.startsWith('http:')) {
    log.warn({}, 'PUBLIC_URL is not https://: mail programs only offer one-click unsubscribe for https links')
  }
  const replies = createReplies({
    db: database.db,
    events,
    writes: database.writes,
    farmName: config.farmName,
    from: notify?.from ?? 'farm@localhost',
    mailQueued: deliveries.owed,
    acknowledging: notify !== null && config.visitorAck,
  })
  deliveries.start()
  if (!outbox)
    log.info(
      {},
      'SMTP_URL or NOTIFY_EMAIL is not set: the owner is not mailed about new leads, and cannot reply from the inbox',
    )
  if (config.visitorAck && !notify) {
    log.warn({}, 'VISITOR_ACK is on but SMTP_URL or NOTIFY_EMAIL is not set: no acknowledgement is sent')
  }
  const readingAgain = startReadingAgain({ submissions, log: analysisLog })
  const retention = startRetention({
    inbox,
    spamDays: config.spamRetentionDays,
    handledDays: config.handledRetentionDays,
    log: dataLog,
  })
  backups.start()
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
    replies,
    /** Why the owner cannot send mail from the inbox, or null when they can. */
    cannotReply: !owner.required
      ? 'To answer from here, set OWNER_PASSWORD: mail goes out as the farm, so only the signed-in owner may send it.'
      : !notify
        ? 'To answer from here, set SMTP_URL and NOTIFY_EMAIL: replies go out by mail.'
        : null,
    /** Null unless UPDATES=true: the subscribers, the updates and their mail. */
    updates,
    /** Why the owner cannot send updates from here, or null when they can. */
    cannotSendUpdates: !config.updates
      ? 'To send updates and offers, set UPDATES=true (with SMTP_URL, NOTIFY_EMAIL and PUBLIC_URL) and restart the site.'
      : !owner.required
        ? 'To send updates, set OWNER_PASSWORD: an open inbox must never let a stranger mail every subscriber.'
        : null,
    backups,
    people,
    /** Why the owner cannot download a backup, delete, or export or forget a person; null when they can. */
    cannotKeepData: owner.required
      ? null
      : 'To download a backup, delete submissions, or export or forget a person, set OWNER_PASSWORD: an open inbox must never let a stranger take or destroy its data.',
    /** Null unless the owner's phones may be notified (OWNER_PASSWORD, and a VAPID subject). */
    push: push ? { ...push, hosts: config.push.hosts } : null,
    /** Why no phone can be notified of leads, or null when one can. */
    cannotPush: !owner.required
      ? 'To be notified on this phone, set OWNER_PASSWORD: an open inbox must never let a stranger subscribe to its leads.'
      : !push
        ? 'To be notified on this phone, set VAPID_SUBJECT (or NOTIFY_EMAIL, or an https PUBLIC_URL): push services need to know whom to contact.'
        : null,
    spamTraps: createSpamTraps({ secret: config.sessionSecret, minFillSeconds: config.minFillSeconds }),
    limits: {
      submissions: createRateLimit({ limit: config.submissionsPerMinute, windowMs: 60_000 }),
      signIns: createRateLimit({ limit: 5, windowMs: 60_000 }),
      replies: createRateLimit({ limit: config.repliesPerMinute, windowMs: 60_000 }),
    },
    farm: { name: config.farmName, product: config.farmProduct },
    log,
    /**
     * Ends the jobs and workers; resolves once whatever was on its way to someone (a mail, a
     * post, a push) is answered and marked. The database is closed last, by whoever stops the server.
     */
    async stop() {
      retention.stop()
      readingAgain.stop()
      void reader.close()
      people.stop()
      await Promise.all([deliveries.stop(), backups.stop()])
    },
  }
}

export type Services = Awaited<ReturnType<typeof buildServices>>
