import { createServer } from 'node:http'
import { readConfig } from './config'
import { createHttpApp } from './http'
import { attachLiveLink } from './live'
import { flushLog, log } from './log'
import { buildServices } from './services'

const config = readConfig()
log.level = config.logLevel
// One decision on the mode, read alike by Express, Remix and React (which picks its build by NODE_ENV).
process.env.NODE_ENV = config.mode
// The database and anything else this process creates are readable by its own user only.
process.umask(0o077)
const services = await buildServices(config)
const app = await createHttpApp(config, services)

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
const relay = attachLiveLink(server, app, config, services)

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
// What the log still holds gets this long to be written: a reader that stopped reading cannot hold the exit.
const logFlushMs = 1_000

let stopping = false
function stop(signal: NodeJS.Signals) {
  if (stopping) return
  stopping = true
  const deadline = setTimeout(() => {
    if (exiting) return
    log.error({ afterMs: shutdownDeadlineMs }, 'requests still open at the shutdown deadline; cutting them')
    server.closeAllConnections()
    exit(1)
  }, shutdownDeadlineMs)
  deadline.unref()
  // Stop taking upgrades and say goodbye to watchers, then stop taking
  // connections; the callback runs once every request in flight has finished.
  relay.close()
  const servicesStopped = services.stop()
  server.close(() => void servicesStopped.then(() => exit(0)))
  server.closeIdleConnections()
  // Said once the listening socket is closed: from this line on, a new connection is refused.
  log.info({ signal }, 'stopping')
}

let exiting = false
function exit(code: number) {
  // Once: the deadline and the orderly close may both come, a moment apart.
  if (exiting) return
  exiting = true
  try {
    services.database.close()
  } catch (error) {
    log.error({ err: error }, 'could not close the database')
    code = 1
  }
  log.info({ code }, 'stopped')
  void flushLog(logFlushMs).then(() => process.exit(code))
}

process.on('SIGTERM', stop)
process.on('SIGINT', stop)
