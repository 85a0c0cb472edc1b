import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { openDatabase } from '../app/db/database.server'
import { createRateLimit } from '../app/limits/rate-limit.server'
import { createOutboxSender } from '../app/notify/outbox.server'
import { createOwnerAccess } from '../app/owner/owner-access.server'
import { createAnalyser } from '../app/submissions/analysis/analyser.server'
import { createLlmReader } from '../app/submissions/analysis/llm.server'
import { createReadingPool } from '../app/submissions/analysis/reading-pool.server'
import { SubmissionEvents } from '../app/submissions/events.server'
import { createSubmissionsService } from '../app/submissions/service.server'
import { createSpamTraps } from '../app/submissions/spam-traps.server'
import { readConfig } from './config'
import { clientAddress, type TrustProxy } from './client-address'
import { attachLiveRelay } from './live-relay'
import { log, requestLog } from './log'
import { limitBody } from './middleware/body-limit'
import { compressResponses, precompressedAssets } from './middleware/compression'
import { cspNonce, securityHeaders } from './middleware/content-security'
import { answerErrors, refuseUnservedMethods, requirePlainHost } from './middleware/requests'
import { comesFromAllowedSite, requireSameOrigin, upgradeOrigin } from './middleware/same-origin'
import { createRemixHandler } from './remix-handler'
import { answerSubmissionPosts } from './submission-posts'

const config = readConfig()
// One decision on the mode, read alike by Express, Remix and React (which picks its build by NODE_ENV).
process.env.NODE_ENV = config.mode
// The database and anything else this process creates are readable by its own user only.
process.umask(0o077)
const database = openDatabase(config.databasePath, config.migrationsFolder)
const events = new SubmissionEvents()
const analysisLog = log.child({ part: 'analysis' })
const reader = createReadingPool({
  // Built (`npm run build`), the worker is compiled beside this file; run from source (`npm run
  // dev`), a small module loads its TypeScript through tsx.
  workerUrl: import.meta.url.endsWith('.ts')
    ? new URL('../app/submissions/analysis/offline-worker.mjs', import.meta.url)
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
const submissions = createSubmissionsService({ db: database.db, events, analyse, mailsOwner: config.notify !== null })
const mailer = config.notify
  ? createOutboxSender({ db: database.db, events, settings: config.notify, log: log.child({ part: 'mail' }) })
  : null
if (mailer) mailer.start()
else log.info('SMTP_URL or NOTIFY_EMAIL is not set: the owner is not mailed about new leads')
const dayMs = 24 * 60 * 60 * 1000
function purgeOldSpam() {
  try {
    const purged = submissions.purgeSpam(new Date(Date.now() - config.spamRetentionDays * dayMs))
    log.info({ purged, olderThanDays: config.spamRetentionDays }, 'purged old spam')
  } catch (error) {
    log.error({ err: error }, 'could not purge old spam')
  }
}
purgeOldSpam()
setInterval(purgeOldSpam, dayMs).unref()
const spamTraps = createSpamTraps({ secret: config.sessionSecret, minFillSeconds: config.minFillSeconds })
const owner = await createOwnerAccess({
  db: database.db,
  password: config.ownerPassword,
  sessionSecret: config.sessionSecret,
})
// From here on the password lives only as its scrypt hash; child processes and workers never see it.
delete process.env.OWNER_PASSWORD
const limits = {
  submissions: createRateLimit({ limit: config.submissionsPerMinute, windowMs: 60_000 }),
  signIns: createRateLimit({ limit: 5, windowMs: 60_000 }),
}
const farm = { name: config.farmName, product: config.farmProduct }
if (!owner.required && config.mode === 'production') {
  log.warn('OWNER_PASSWORD is not set: anyone can read the submissions at /farm-sales')
}

const app = express()
app.set('env', config.mode)
app.disable('x-powered-by')
app.set('trust proxy', config.trustProxy)
// First, so static files get their line too.
app.use(requestLog)
app.use(refuseUnservedMethods(), requirePlainHost())
app.use(cspNonce(), securityHeaders(config.mode, config.hstsIncludeSubDomains))
app.use(compressResponses())
// Remix fingerprints its bundles, so they can be cached for good; in development they change
// on every save and are not compressed ahead of time.
const bundles = fileURLToPath(new URL('../public/build', import.meta.url))
if (config.mode === 'production') app.use('/build', precompressedAssets(bundles))
app.use('/build', express.static(bundles, { immutable: true, maxAge: '1y' }))
app.use(express.static(new URL('../public', import.meta.url).pathname, { maxAge: '1h' }))

app.get('/healthz', (_req, res) => {
  try {
    database.sqlite.prepare('SELECT count(*) FROM submissions').get()
    res.json({ status: 'ok' })
  } catch (error) {
    log.error({ err: error }, 'health check failed')
    res.status(503).json({ status: 'error', error: 'The database is not available.' })
  }
})

app.use(requireSameOrigin(config.allowedOrigins))
app.use(limitBody())
app.post('/api/submissions', answerSubmissionPosts({ submissions, spamTraps, limits, log }))
app.all(
  '*',
  await createRemixHandler(config.mode, (_req, res) => ({
    farm,
    submissions,
    spamTraps,
    owner,
    limits,
    // The Express request, not the one Remix reads its body from, knows the address.
    clientAddress: res.req.ip ?? '',
    cspNonce: res.locals.cspNonce,
    log,
  })),
)
app.use(answerErrors(log))

const server = createServer(
  {
    // A client gets this long to send its headers, and then its whole request; a trickle is cut.
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    // How often those deadlines are checked (Node's default, 30 s, would let a trickle last a minute).
    connectionsCheckingInterval: 1_000,
  },
  app,
)
// Live sockets are connections too; past this many in all, new ones are turned away at once.
server.maxConnections = config.liveMaxSockets + 1_000
const trustsProxy = app.get('trust proxy fn') as TrustProxy
const relay = attachLiveRelay(server, events, {
  mostSockets: config.liveMaxSockets,
  mostSocketsPerAddress: config.liveMaxSocketsPerAddress,
  addressOf: (req) => clientAddress(req, trustsProxy),
  async admit(req) {
    if (
      !comesFromAllowedSite(
        { headers: req.headers, ownOrigin: upgradeOrigin(req, config.trustProxy !== false) },
        config.allowedOrigins,
      )
    )
      return 403
    return (await owner.mayWatch(req.headers.cookie)) ? null : 401
  },
})

server.listen(config.port, config.host, () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  log.info({ url: `http://${config.host}:${port}`, mode: config.mode }, 'listening')
  // The model's address and name only; the key stays out of the log.
  log.info(
    config.llm ? { llm: { endpoint: new URL(config.llm.endpoint).origin, model: config.llm.model } } : { llm: null },
    config.llm ? 'analysing messages with the language model, offline when it fails' : 'analysing messages offline',
  )
})

// Past this, whatever is still open is cut and the exit code says so; it leaves
// time to checkpoint before an orchestrator's usual 10 s kill.
const shutdownDeadlineMs = 8_000

let stopping = false
function stop(signal: NodeJS.Signals) {
  if (stopping) return
  stopping = true
  log.info({ signal }, 'stopping')
  const deadline = setTimeout(() => {
    log.error({ afterMs: shutdownDeadlineMs }, 'requests still open at the shutdown deadline; cutting them')
    server.closeAllConnections()
    exit(1)
  }, shutdownDeadlineMs)
  deadline.unref()
  // Stop taking upgrades and say goodbye to watchers, then stop taking
  // connections; the callback runs once every request in flight has finished.
  relay.close()
  mailer?.stop()
  void reader.close()
  server.close(() => exit(0))
  server.closeIdleConnections()
}

function exit(code: number) {
  try {
    database.close()
  } catch (error) {
    log.error({ err: error }, 'could not close the database')
    code = 1
  }
  log.info({ code }, 'stopped')
  process.exit(code)
}

process.on('SIGTERM', stop)
process.on('SIGINT', stop)
