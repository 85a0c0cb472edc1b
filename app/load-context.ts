import type { OwnerAccess } from './owner/owner-access.server'
import type { SpamTraps } from './submissions/spam-traps.server'
import type { SubmissionsService } from './submissions/service.server'

export interface Farm {
  name: string
  product: string
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    farm: Farm
    submissions: SubmissionsService
    spamTraps: SpamTraps
    owner: OwnerAccess
    /** The nonce this response's Content-Security-Policy allows scripts by. */
    cspNonce: string
  }
}
