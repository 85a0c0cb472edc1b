import type { Server } from 'node:http'
import type { Express } from 'express'
import { attachLiveRelay } from '#app/live/relay.server'
import { mayPass } from '#app/owner/permissions'
import { clientAddress, type TrustProxy } from './client-address'
import type { Config } from './config'
import { comesFromAllowedSite, upgradeHost, upgradeOrigin } from './middleware/same-origin'
import type { Services } from './services'

/** The live link on the HTTP server: the relay with its caps and who may open it. */
export function attachLiveLink(server: Server, app: Express, config: Config, services: Services) {
  const trustsProxy = app.get('trust proxy fn') as TrustProxy
  const relay = attachLiveRelay(server, services.events, {
    mostSockets: config.liveMaxSockets,
    mostSocketsPerAddress: config.liveMaxSocketsPerAddress,
    addressOf: (req) => clientAddress(req, trustsProxy),
    async admit(req) {
      if (services.siteNames.refusal([req.headers.host, upgradeHost(req, trustsProxy)]) !== null) return 421
      const ownOrigin = upgradeOrigin(req, config.trustProxy !== false)
      if (!comesFromAllowedSite({ headers: req.headers, ownOrigin }, config.allowedOrigins)) return 403
      const pass = await services.owner.passFor(req.headers.cookie)
      if (!pass) return 401
      return mayPass(pass.who.role, 'inbox:read') ? pass : 403
    },
    countsOf: (event) =>
      event.type === 'FARM_RENAMED' || event.type === 'ORDER_CHANGED'
        ? []
        : event.type === 'SUBMISSIONS_REMOVED'
          ? services.inbox.everyCount()
          : services.inbox.countsTouchedBy(event.data.id),
    log: services.log,
  })
  services.owner.onSignOut((session) => relay.endSession(session))
  return relay
}
