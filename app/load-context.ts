import type { RateLimit } from './limits/rate-limit.server'
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
    /** Attempts per visitor, counted where the action runs so every path and method to it counts. */
    limits: { submissions: RateLimit; signIns: RateLimit }
    /** The visitor's address (from X-Forwarded-For only behind TRUST_PROXY). */
    clientAddress: string
    /** The nonce this response's Content-Security-Policy allows scripts by. */
    cspNonce: string
    log: Log
  }
}
