import { createRateLimit } from '#app/limits/rate-limit.server'
import type { Config } from './config'

// Invitations, set-up links and passkey challenges asked for by anyone: each is a write or a slot.
const joinsPerMinute = 10
const signInsPerMinute = 5

/** Attempts per visitor (per person for replies), counted where the action runs so every path and method counts. */
export function createLimits(config: Pick<Config, 'submissionsPerMinute' | 'repliesPerMinute'>) {
  return {
    submissions: createRateLimit({ limit: config.submissionsPerMinute, windowMs: 60_000 }),
    signIns: createRateLimit({ limit: signInsPerMinute, windowMs: 60_000 }),
    joins: createRateLimit({ limit: joinsPerMinute, windowMs: 60_000 }),
    replies: createRateLimit({ limit: config.repliesPerMinute, windowMs: 60_000 }),
  }
}
