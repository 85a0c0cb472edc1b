import { startAnalysis } from '#app/analysis/analysis-feature.server'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { createDkim } from '#app/delivery/dkim.server'
import { createDeliveryEngine, type DeliveryEngine } from '#app/delivery/engine.server'
import { dueAgainNow } from '#app/delivery/record.server'
import { deliveryKinds } from '#app/data/enums'
import { createCsvExports } from '#app/inbox/csv-export.server'
import { createInbox } from '#app/inbox/inbox.server'
import { createMailBack, liftedByWritingAgain } from '#app/mail-back/mail-back.server'
import { createMailReader } from '#app/mail-back/mail-reader.server'
import { watchMailbox } from '#app/mail-back/mailbox.server'
import { startDataLifecycle } from '#app/lifecycle/data-lifecycle.server'
import { refuseDamagedDatabase } from '#app/lifecycle/database-health.server'
import { SubmissionEvents } from '#app/live/events.server'
import { openOwnerAccess, type OwnerAccess } from '#app/owner/owner-access.server'
import { createPasskeys } from '#app/owner/passkeys.server'
import { createSiteNames } from '#app/owner/site-names.server'
import { mailTheOwner } from '#app/owner-mail/mail-the-owner.server'
import { tellOwnerPhones } from '#app/push/owner-phones.server'
import { answerLeads } from '#app/replies/answering-leads.server'
import { startReadingAgain } from '#app/submissions/read-again.server'
import { createSubmissionsService } from '#app/submissions/service.server'
import { createSpamTraps } from '#app/submissions/spam-traps.server'
import { offerUpdates } from '#app/updates/updates-and-offers.server'
import { createWebhook } from '#app/webhook/webhook.server'
import { readOrders } from '#app/orders/order-view.server'
import { createOrders } from '#app/orders/orders.server'
import { weekAtTheFarm } from '#app/this-week/week-at-the-farm.server'
import { txtLookups } from '#app/settings/mail-dns.server'
import { createActivityLog } from '#app/team/activity.server'
import { createFarmPage } from '#app/farm-page/farm-page.server'
import { dayNumberOf, hoursOn } from '#app/farm-page/opening-hours'
import type { PageWords } from '#app/farm-page/page-words'
import { createOrderConfirming } from '#app/orders/order-confirming.server'
import { createInsights } from '#app/insights/insights.server'
import { keepWeeksOn } from '#app/insights/farm-weeks.server'
import { utc } from '#app/clock/farm-clock'
import { mailInvitations } from '#app/team/invitation-mail.server'
import { createTeam } from '#app/team/team.server'
import { createSettings } from '#app/settings/settings.server'
import { createPhotoMaker } from '#app/photos/photo-making.server'
import { createPhotos } from '#app/photos/photos.server'
import { wokenBy } from '#app/settings/declared'
import { keptVisitorMails } from '#app/replies/reply-delivery.server'
import { createOrderLinks } from '#app/orders/order-links.server'
import { createOrderCancelling } from '#app/orders/cancel-order.server'
import { startOrderReminders } from '#app/orders/order-reminders.server'
import { createVisitorOrders } from '#app/orders/visitor-orders.server'
import { defaults, readConfig, type Config } from './config'
import { createLimits } from './limits'
import { log } from './log'
import { invitationMailSettings, ownerMailSettings, updateMailSettings } from './sender-settings'

/** The settings now: what the environment sets, under what the settings page changed since. */
type Now = () => Config

/** The farm's clock now: FARM_TIME_ZONE, else UTC until one is chosen. */
const farmClockOf = (now: Now) => () => now().farmTimeZone ?? utc

/** Built (`npm run build`), the workers and the backup copier are compiled beside this file; run from source (`npm run dev`), a small module loads each one's TypeScript through tsx. */
/** The farm as its settings say now: its name, product, clock and languages. */
const theFarmNow = (now: Now) => () => {
  const { farmName, farmProduct, farmLanguages } = now()
  return { name: farmName, product: farmProduct, timeZone: farmClockOf(now)(), languages: farmLanguages }
}

const compiled = (name: string, source: string) =>
  import.meta.url.endsWith('.ts') ? new URL(`../app/${source}`, import.meta.url) : new URL(name, import.meta.url)

/** The photos' maker, its HEIC decoder's worker compiled or loaded from source as the others are. */
const photoMaker = () => createPhotoMaker({ heicWorkerUrl: compiled('heic-worker.js', 'photos/heic-worker.mjs') })

/** The database, the team's access to it and the settings it keeps. */
async function openTheFarm(config: Config, env: Record<string, string | undefined>) {
  refuseDamagedDatabase(config.databasePath, config.backups.dir)
  const database = openDatabase(config.databasePath, config.migrationsFolder)
  const owner = await openOwnerAccess({
    db: database.db,
    writes: database.writes,
    password: config.ownerPassword,
    sessionSecret: config.sessionSecret,
    production: config.mode === 'production',
    log,
  })
  // What the environment sets is `config`, read at start; what the settings page may change is
  // read from `settings.config` each time it is used, so a change takes no restart.
  const settings = createSettings<Config>({
    db: database.db,
    writes: database.writes,
    env,
    defaults,
    read: readConfig,
    hasOwner: () => owner.required,
    log: log.child({ part: 'settings' }),
  })
  return { database, owner, settings, now: () => settings.config }
}

/** The people of the team, what they did, and their invitations' mail. */
function theTeam({
  config,
  now,
  database,
  owner,
  engine,
  hashOfAddress,
}: {
  config: Config
  now: Now
  database: OpenDatabase
  owner: OwnerAccess
  engine: DeliveryEngine
  hashOfAddress: (address: string) => string
}) {
  const teamLog = log.child({ part: 'team' })
  const activity = createActivityLog({
    db: database.db,
    writes: database.writes,
    hashOfAddress,
    keepDays: () => now().activityDays,
  })
  const team = createTeam({
    db: database.db,
    writes: database.writes,
    access: owner,
    activity,
    mails: mailInvitations({
      engine,
      db: database.db,
      settings: invitationMailSettings(now),
      retryBaseMs: config.retryBaseMs,
    }),
    owed: engine.owed,
    log: teamLog,
  })
  const passkeys = createPasskeys({
    db: database.db,
    writes: database.writes,
    access: owner,
    farmName: () => now().farmName,
  })
  return { activity, team, passkeys }
}

/** Everything a lead or the owner owes someone: the owner's mail, the visitors', updates, the phones, the webhook. */
function whatIsOwed({
  config,
  now,
  database,
  events,
  owner,
  engine,
  team,
  leftBeforeForgetting,
}: {
  config: Config
  now: Now
  database: OpenDatabase
  events: SubmissionEvents
  owner: OwnerAccess
  engine: DeliveryEngine
  team: ReturnType<typeof createTeam>
  leftBeforeForgetting: Parameters<typeof offerUpdates>[0]['leftBeforeForgetting']
}) {
  const mailLog = log.child({ part: 'mail' })
  const { db, writes } = database
  const { retryBaseMs } = config
  const farmName = () => now().farmName
  const ownerRequired = () => owner.required
  const ownerMail = mailTheOwner({
    engine,
    db,
    settings: ownerMailSettings(now, team),
    retryBaseMs,
    log: mailLog,
  })
  const updates = offerUpdates({
    engine,
    db,
    writes,
    settings: updateMailSettings(now),
    retryBaseMs,
    farmName,
    products: () => now().farmProducts.map((product) => product.name),
    ownerRequired,
    leftBeforeForgetting,
    log: mailLog.child({ of: 'updates' }),
  })
  const answering = answerLeads({
    engine,
    db,
    writes,
    events,
    mail: () => now().notify,
    retryBaseMs,
    farmName,
    timeZone: farmClockOf(now),
    acknowledging: () => now().visitorAck,
    updates: updates.desk,
    ownerRequired,
    log: mailLog,
  })
  const phones = tellOwnerPhones({
    engine,
    db,
    writes,
    settings: () => now().push,
    retryBaseMs,
    ownerRequired,
    log: log.child({ part: 'push' }),
  })
  const webhook = createWebhook({
    engine,
    db,
    settings: () => now().webhook,
    retryBaseMs,
    orders: (ids) => readOrders(db, ids),
  })
  return { mailLog, ownerMail, updates, answering, phones, webhook, toldOfEachLead: [ownerMail, webhook, phones.queue] }
}

/** The visitor's side of a confirmed order: its page and cancel by its signed link, and the day-before reminder. */
function ordersForVisitors({
  now,
  database,
  events,
  engine,
  owed,
  farmPage,
}: {
  now: Now
  database: OpenDatabase
  events: SubmissionEvents
  engine: DeliveryEngine
  owed: ReturnType<typeof whatIsOwed>
  farmPage: ReturnType<typeof createFarmPage>
}) {
  const { db, writes } = database
  const timeZone = farmClockOf(now)
  const from = () => now().notify?.from ?? 'farm@localhost'
  const cut = () => ({ hoursBefore: now().orders.cancelHoursBefore, timeZone: timeZone() })
  const links = createOrderLinks({ db, publicUrl: () => now().push.siteUrl ?? '' })
  const cancelOrder = createOrderCancelling({
    db,
    writes,
    events,
    teamTold: [owed.ownerMail, owed.phones.queue],
    owed: engine.owed,
    from,
    cut,
  })
  const reminders = startOrderReminders({
    db,
    writes,
    visitorMails: keptVisitorMails(engine),
    settings: () => {
      const { orders, notify, farmName, push } = now()
      if (!orders.reminders || !notify) return null
      const farm = { name: farmName, timeZone: timeZone() }
      return {
        farmName,
        timeZone: farm.timeZone,
        from: notify.from,
        address: farmPage.forVisitors(farm, push.siteUrl).words.findUs.address,
        cancelHoursBefore: orders.cancelHoursBefore,
        link: push.siteUrl ? links.url : null,
      }
    },
    log: log.child({ part: 'orders' }),
  })
  return { cancelOrder, reminders, visitorOrders: createVisitorOrders({ db, links, cancelOrder, cut }) }
}
/** Where and when orders are picked up, from the farm's page: its address, directions and opening hours. */
const pickUpPlace = ({ findUs, hours }: PageWords) => ({
  address: findUs.address,
  directions: findUs.directions,
  // Null when the page gives no hours at all: then no day is said to be closed.
  hoursOn: (date: string) =>
    hours.week.some(Boolean) || hours.exceptions.length > 0 ? (hoursOn(hours, dayNumberOf(date)) ?? 'closed') : null,
})

/** The insights' weeks on the farm's clock: made anew (and said) when the clock changed. */
function keepFarmWeeks(database: OpenDatabase, zone: string) {
  const startedAt = performance.now()
  if (keepWeeksOn(database.db, zone)) {
    log.info({ timeZone: zone, ms: Math.round(performance.now() - startedAt) }, 'counted the weeks on the farm’s clock')
  }
}

/**
 * Composes the site: each feature's own factory, in the order they need each other, each saying
 * what is off and why. Remix gets them through the load context; the HTTP pipeline and the live
 * relay through the composition root.
 */
export async function buildServices(config: Config, env: Record<string, string | undefined> = process.env) {
  const { database, owner, settings, now } = await openTheFarm(config, env)
  const timeZone = farmClockOf(now)
  keepFarmWeeks(database, timeZone())
  const events = new SubmissionEvents()
  const inbox = createInbox({ db: database.db, events, writes: database.writes })
  // Before anything is sent: a restored backup's forgotten people are forgotten again first.
  const lifecycle = startDataLifecycle({
    db: database.db,
    sqlite: database.sqlite,
    writes: database.writes,
    events,
    inbox,
    databasePath: config.databasePath,
    backupsDir: config.backups.dir,
    settings: () => ({ ...now(), siteUrl: now().push.siteUrl }),
    copierUrl: compiled('backup-copier.js', 'lifecycle/backup-copier.mjs'),
    log: log.child({ part: 'data' }),
  })
  const analysisLog = log.child({ part: 'analysis' })
  const analysis = startAnalysis({
    workerUrl: compiled('offline-worker.js', 'analysis/offline-worker.mjs'),
    products: now().farmProducts,
    budgetMs: config.analysisTimeoutMs,
    llm: config.llm,
    timeZone,
    // Read when a message is: the farm's page is made below, before anything can hand in a message.
    openingHours: () => farmPage.published().hours,
    log: analysisLog,
  })
  const dkim = createDkim({ db: database.db, privateKey: config.dkim.privateKey, selector: () => now().dkim.selector })
  const engine = createDeliveryEngine({
    db: database.db,
    writes: database.writes,
    log: log.child({ part: 'delivery' }),
    dkim,
  })
  const { activity, team, passkeys } = theTeam({
    config,
    now,
    database,
    owner,
    engine,
    hashOfAddress: lifecycle.people.hashOfAddress,
  })
  const farmPage = createFarmPage({
    db: database.db,
    writes: database.writes,
    activity,
    log: log.child({ part: 'farm page' }),
  })
  const owed = whatIsOwed({
    config,
    now,
    database,
    events,
    owner,
    engine,
    team,
    leftBeforeForgetting: lifecycle.people.leftBeforeForgetting,
  })
  const { mailLog, ownerMail, updates, answering, phones } = owed
  const submissions = createSubmissionsService({
    db: database.db,
    events,
    analyse: analysis.analyse,
    writes: database.writes,
    acknowledgements: answering.acknowledgements,
    leadQueues: [liftedByWritingAgain(database.db), ...owed.toldOfEachLead],
    owed: engine.owed,
  })
  const mailBack = createMailBack({
    db: database.db,
    writes: database.writes,
    events,
    submissions,
    answerQueues: owed.toldOfEachLead,
    forgottenSince: lifecycle.people.forgottenSince,
    owed: engine.owed,
    log: mailLog.child({ of: 'mailbox' }),
  })
  const mailbox = watchMailbox({
    settings: () => now().mailbox,
    mailBack,
    reader: createMailReader({ workerUrl: compiled('mail-reader.js', 'mail-back/mail-reader-worker.mjs') }),
    log: mailLog.child({ of: 'mailbox' }),
  })
  mailbox.start()
  const visitorSide = ordersForVisitors({ now, database, events, engine, owed, farmPage })
  const readingAgain = startReadingAgain({ submissions, log: analysisLog })
  const week = weekAtTheFarm({
    db: database.db,
    writes: database.writes,
    products: () => now().farmProducts.map((product) => product.name),
    activity,
    farm: () => ({ name: now().farmName, timeZone: timeZone() }),
  })
  const orderBook = createOrders({
    db: database.db,
    writes: database.writes,
    events,
    owed: engine.owed,
    timeZone,
    cancelOrder: visitorSide.cancelOrder,
  })
  engine.start()
  // What a change wakes is declared with each setting (app/settings/declared.ts): a kind of
  // delivery among them makes what failed with the old values due now.
  settings.onChange((next, changed) => {
    const woken = wokenBy(changed)
    if (woken.has('products')) analysis.lookFor(next.farmProducts)
    if (woken.has('farm name')) events.publish({ type: 'FARM_RENAMED', name: next.farmName })
    if (woken.has('owner mail')) ownerMail.said()
    if (woken.has('mailbox')) mailbox.settingsChanged()
    if (woken.has('backups')) lifecycle.backupsChanged()
    if (woken.has('farm clock')) {
      void database.writes
        .whenFree(() => keepFarmWeeks(database, timeZone()))
        .catch((error: unknown) => log.error({ err: error }, 'could not count the weeks on the farm’s new clock'))
    }
    answering.settingsChanged()
    updates.settingsChanged()
    void visitorSide.reminders.look()
    const kinds = deliveryKinds.filter((kind) => woken.has(kind))
    void database.writes
      .whenFree(() => dueAgainNow(database.db, kinds, new Date()))
      .catch((error: unknown) => log.error({ err: error }, 'could not make what failed due again'))
      .finally(engine.start)
  })

  return {
    database,
    events,
    submissions,
    inbox,
    csvExports: createCsvExports({ inbox, mostAtOnce: config.exportsAtOnce, timeZone }),
    settings,
    /** The farm's DKIM key: what the mail set-up shows, and what a test mail is signed with. */
    dkim,
    sendOnce: engine.once,
    resolveTxt: txtLookups(config.dnsServers),
    /** How the link to the farm's mailbox is (answers, bounces and complaints read back). */
    mailbox: { link: mailbox.link, test: mailbox.test },
    /** The mails that wait, while the owner is mailed about leads; else null. */
    outbox: () => (now().notify ? ownerMail.backlog() : null),
    owner,
    team,
    activity,
    farmPage,
    orders: orderBook,
    /** A visitor's order by its signed link: shown, and cancelled until its cut-off. */
    visitorOrders: visitorSide.visitorOrders,
    insights: createInsights({ db: database.db, timeZone, updateReports: updates.reportsSince }),
    passkeys,
    siteNames: createSiteNames({ siteHosts: () => now().siteHosts, inboxOpen: () => !owner.required, log }),
    replies: answering.replies,
    cannotReply: answering.cannotReply,
    updates: updates.desk,
    subscribers: updates.subscribers,
    week,
    orderConfirming: createOrderConfirming({
      db: database.db,
      writes: database.writes,
      replies: answering.replies,
      list: week.list,
      timeZone,
      place: () => pickUpPlace(farmPage.published()),
      told: orderBook.told,
    }),
    cannotSendUpdates: updates.cannotSendUpdates,
    /** What is set up of what makes the site useful: the inbox's first-run list and its one banner. */
    setup: () => ({ mail: now().notify !== null, phone: phones.told(), updates: now().updates !== null }),
    backups: lifecycle.backups,
    offsite: lifecycle.offsite,
    people: lifecycle.people,
    push: phones.phones,
    cannotPush: phones.cannotPush,
    spamTraps: createSpamTraps({ secret: config.sessionSecret, minFillSeconds: config.minFillSeconds }),
    limits: createLimits(config),
    photos: createPhotos({ db: database.db, writes: database.writes, maker: photoMaker(), activity }),
    farm: theFarmNow(now),
    reader: analysis.reader,
    log,
    /**
     * Ends the jobs and workers; resolves once whatever was on its way to someone (a mail, a
     * post, a push) is answered and marked. The database is closed last, by whoever stops the server.
     */
    async stop() {
      readingAgain.stop()
      visitorSide.reminders.stop()
      mailbox.stop()
      analysis.stop()
      await Promise.all([engine.stop(), lifecycle.stop()])
    },
  }
}

export type Services = Awaited<ReturnType<typeof buildServices>>
