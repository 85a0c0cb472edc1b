import { createServer } from 'node:http'
import express from 'express'
import { openDatabase } from '../app/db/database.server'
import { createOwnerAccess } from '../app/owner/owner-access.server'
import { createAnalyser } from '../app/submissions/analysis/analyser.server'
import { createLlmReader } from '../app/submissions/analysis/llm.server'
import { createOfflineReader } from '../app/submissions/analysis/offline.server'
import { SubmissionEvents } from '../app/submissions/events.server'
import { createSubmissionsService } from '../app/submissions/service.server'
import { createSpamTraps } from '../app/submissions/spam-traps.server'
import { readConfig } from './config'
import { attachLiveRelay } from './live-relay'
import { log, requestLog } from './log'
import { limitBody } from './middleware/body-limit'
import { cspNonce, securityHeaders } from './middleware/content-security'
import { limitSignIns, limitSubmissions } from './middleware/rate-limits'
import { comesFromAllowedSite, requireSameOrigin, upgradeOrigin } from './middleware/same-origin'
import { createRemixHandler } from './remix-handler'

const config = readConfig()
const database = openDatabase(config.databasePath, config.migrationsFolder)
const events = new SubmissionEvents()
const analyse = createAnalyser({
  readOffline: createOfflineReader(config.farmProducts),
  readWithLlm: config.llm
    ? createLlmReader(
        config.llm,
        config.farmProducts.map((product) => product.name),
      )
    : undefined,
  log: log.child({ part: 'analysis' }),
})
const submissions = createSubmissionsService({ db: database.db, events, analyse })
const spamTraps = createSpamTraps({ secret: config.sessionSecret, minFillSeconds: config.minFillSeconds })
const owner = createOwnerAccess({
  password: config.ownerPassword,
  sessionSecret: config.sessionSecret,
  secureCookie: config.mode === 'production',
})
const farm = { name: config.farmName, product: config.farmProduct }
if (!owner.required && config.mode === 'production') {
  log.warn('OWNER_PASSWORD is not set: anyone can read the submissions at /farm-sales')
}

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', config.trustProxy)
// First, so static files get their line too.
app.use(requestLog)
app.use(cspNonce(), securityHeaders(config.mode))
// Remix fingerprints its bundles, so they can be cached for good.
app.use(
  '/build',
  express.static(new URL('../public/build', import.meta.url).pathname, { immutable: true, maxAge: '1y' }),
)
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
app.post(['/api/submissions', '/'], limitSubmissions(config.submissionsPerMinute))
app.post('/sign-in', limitSignIns())
app.use(limitBody())
app.all(
  '*',
  await createRemixHandler(config.mode, (_req, res) => ({
    farm,
    submissions,
    spamTraps,
    owner,
    cspNonce: res.locals.cspNonce,
    log,
  })),
)

const server = createServer(app)
const relay = attachLiveRelay(server, events, {
  mostSockets: 500,
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
