import type { Server } from 'node:http'
import type { Express } from 'express'
import { attachLiveRelay } from '#app/live/relay.server'
import { clientAddress, type TrustProxy } from './client-address'
import type { Config } from './config'
import { comesFromAllowedSite, upgradeOrigin } from './middleware/same-origin'
import type { Services } from './services'

/** The live link on the HTTP server: the relay with its caps and who may open it. */
export function attachLiveLink(server: Server, app: Express, config: Config, services: Services) {
  const trustsProxy = app.get('trust proxy fn') as TrustProxy
  return attachLiveRelay(server, services.events, {
    mostSockets: config.liveMaxSockets,
    mostSocketsPerAddress: config.liveMaxSocketsPerAddress,
    addressOf: (req) => clientAddress(req, trustsProxy),
    async admit(req) {
      const ownOrigin = upgradeOrigin(req, config.trustProxy !== false)
      if (!comesFromAllowedSite({ headers: req.headers, ownOrigin }, config.allowedOrigins)) return 403
      return (await services.owner.mayWatch(req.headers.cookie)) ? null : 401
    },
    countsOf: (submission) => services.inbox.countsTouchedBy(submission.id),
    log: services.log,
  })
}
