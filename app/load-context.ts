import type { OwnerAccess } from './owner/owner-access.server'
import type { SpamTraps } from './submissions/spam-traps.server'
import type { SubmissionsService } from './submissions/service.server'

/**
 * The server's logger: each call writes one JSON line. Pass an error as
 * `{ err }`; it is logged without the values a failed query carried.
 */
export interface Log {
  error(details: object, message: string): void
  warn(details: object, message: string): void
}

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
    log: Log
  }
}
