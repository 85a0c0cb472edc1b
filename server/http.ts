import { fileURLToPath } from 'node:url'
import express from 'express'
import { latestHomePage, type HomePage, type HomePageSources } from '#app/home/home-page.server'
import type { Config } from './config'
import { requestLog } from './log'
import { limitBody } from './middleware/body-limit'
import { bundleFiles, compressResponses } from './middleware/compression'
import { cspNonce, securityHeaders } from './middleware/content-security'
import { answerErrors, oneWayToTheApi, refuseUnservedMethods, requireHostShape } from './middleware/requests'
import { requireSameOrigin } from './middleware/same-origin'
import { createRemixHandler } from './remix-handler'
import type { Services } from './services'
import { answerOneClickUnsubscribes } from './one-click-unsubscribe'
import { serveServiceWorker } from './service-worker'
import { answerSubmissionPosts } from './submission-posts'
import { servePhotos } from '#app/photos/serve-photos.server'

/** The Express pipeline, in the order a request meets it, ending in Remix. */
export async function createHttpApp(config: Config, services: Services) {
  const { database, log } = services
  const app = express()
  app.set('env', config.mode)
  app.disable('x-powered-by')
  app.set('trust proxy', config.trustProxy)
  // First, so static files get their line too.
  app.use(requestLog)
  app.use(refuseUnservedMethods(), requireHostShape(), oneWayToTheApi())
  app.use(cspNonce(), securityHeaders(config))
  app.use(compressResponses())
  // Remix fingerprints its bundles, so they can be cached for good; in development they change
  // on every save and are not compressed ahead of time.
  const bundles = fileURLToPath(new URL('../public/build', import.meta.url))
  app.use('/build', bundleFiles(bundles, { precompressed: config.mode === 'production' }))
  const publicFiles = express.static(new URL('../public', import.meta.url).pathname, { maxAge: '1h', index: false })
  // Every file there has an extension: a page's path (/, /farm-sales) is not looked for on disk.
  app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? publicFiles(req, res, next) : next()))
  app.get('/service-worker.js', serveServiceWorker())
  app.get('/photos/:name', servePhotos(services.photos))

  // One row's worth of reading, the same however many rows there are, that still fails when the
  // inbox's table cannot be read (`SELECT 1` alone never touches the file).
  const ping = database.sqlite.prepare('SELECT 1 FROM submissions LIMIT 1')
  app.get('/healthz', (_req, res) => {
    let outbox: { unsent: number; oldestUnsentSeconds: number } | null
    try {
      ping.get()
      outbox = services.outbox()
    } catch (error) {
      log.error({ err: error }, 'health check failed')
      return void res.status(503).json({ status: 'error', error: 'The database is not available.' })
    }
    // Reads can answer while every write fails (a full disk): a failed write in the last minute fails the check.
    const failedWritesLastMinute = database.writes.failedInLastMinute()
    const reader = services.reader()
    // How the link is, not the server's words (they may name its host or user): those are the owner's, on their pages.
    const { state, idle } = services.mailbox.link()
    const mailbox = { state, idle }
    // The bucket's state only: its address, name and the words of a failure are the owner's page's.
    const offsite = services.offsite.state()
    if (failedWritesLastMinute === 0) {
      return void res.json({ status: 'ok', failedWritesLastMinute, outbox, reader, mailbox, offsite })
    }
    res.status(503).json({
      status: 'error',
      error: 'Writing to the database failed in the last minute.',
      failedWritesLastMinute,
      outbox,
      reader,
      mailbox,
      offsite,
    })
  })

  app.post(
    '/updates/unsubscribe',
    limitBody(async () => false),
    answerOneClickUnsubscribes(services.subscribers),
  )
  app.use(requireSameOrigin(config.allowedOrigins))
  // Only a signed-in owner (so only with OWNER_PASSWORD set) writes replies long enough to need more.
  app.use(limitBody(async (cookie) => services.owner.required && (await services.owner.passFor(cookie)) !== null))
  app.post('/api/submissions', answerSubmissionPosts(services))
  const homePageNow = latestHomePage(database.sqlite)
  app.all(
    '*',
    await createRemixHandler(config.mode, (_req, res) => {
      const farm = services.farm()
      // Each field named: spread ahead of this many, V8 built the object the slow way (30 µs a request).
      return {
        farm,
        homePage: homePageOf(farm, services, homePageNow),
        submissions: services.submissions,
        inbox: services.inbox,
        csvExports: services.csvExports,
        spamTraps: services.spamTraps,
        owner: services.owner,
        team: services.team,
        activity: services.activity,
        farmPage: services.farmPage,
        insights: services.insights,
        orders: services.orders,
        passkeys: services.passkeys,
        siteNames: services.siteNames,
        replies: services.replies,
        cannotReply: services.cannotReply(),
        updates: services.updates(),
        cannotSendUpdates: services.cannotSendUpdates(),
        push: services.push(),
        cannotPush: services.cannotPush(),
        subscribers: services.subscribers,
        week: services.week,
        orderConfirming: services.orderConfirming,
        settings: services.settings,
        dkim: services.dkim,
        sendOnce: services.sendOnce,
        resolveTxt: services.resolveTxt,
        setup: services.setup,
        mailbox: services.mailbox,
        backups: services.backups,
        offsite: services.offsite,
        people: services.people,
        visitorOrders: services.visitorOrders,
        photos: services.photos,
        limits: services.limits,
        // The Express request, not the one Remix reads its body from, knows the address.
        clientAddress: res.req.ip ?? '',
        cspNonce: res.locals.cspNonce,
        log,
      }
    }),
  )
  app.use(answerErrors(log))
  return app
}

/** The home page, read from the farm (as this request's context has it) and the services once, when first asked. */
function homePageOf(farm: HomePageSources['farm'], services: Services, read: (sources: HomePageSources) => HomePage) {
  let homePage: HomePage | undefined
  return () =>
    (homePage ??= read({
      farm,
      farmPage: services.farmPage,
      week: services.week,
      photos: services.photos,
      asking: services.updates() !== null,
      siteUrl: services.settings.config.push.siteUrl,
    }))
}
