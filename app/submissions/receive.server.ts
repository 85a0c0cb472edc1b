import { visitorKey, type RateLimit } from '#app/limits/rate-limit.server'
import type { Log } from '#app/log'
import type { ContactFormErrors } from './contact-fields'
import type { SubmissionsService } from './service.server'
import type { SpamTraps } from './spam-traps.server'
import type { Submission } from '#app/leads/lead'
import type { Language } from '#app/language/languages'

/** A submission as it arrived, already read from its body by the way it came in. */
export interface Arrival {
  /** The name, email and message as sent: anything, checked here. */
  fields: unknown
  /** The form's trap fields as sent (its hidden field and signed start time), if any. */
  traps: unknown
  /** Whose allowance it spends. */
  clientAddress: string
  /** The home page's language it was sent from: its refusals are in it, and the lead keeps it. */
  language?: Language | null
}

export type Received =
  | { outcome: 'stored'; submission: Submission }
  /** Walked into a trap or read as spam: kept aside, and the sender thanked like anyone else. */
  | { outcome: 'set aside' }
  | { outcome: 'invalid'; errors: ContactFormErrors }
  | { outcome: 'too many'; retryAfterSeconds: number }
  /** Could not be stored; already logged. */
  | { outcome: 'failed' }

export interface ReceiveNeeds {
  submissions: SubmissionsService
  spamTraps: SpamTraps
  limits: { submissions: RateLimit }
  log: Log
}

/**
 * The one door every submission comes through, whichever way it arrived (the JSON API in any
 * spelling, or the home page's form without JavaScript): the sender's limit, the traps, the
 * checks and the store. The ways in only read their body before and shape their answer after.
 */
export async function receive(
  { submissions, spamTraps, limits, log }: ReceiveNeeds,
  { fields, traps, clientAddress, language = null }: Arrival,
): Promise<Received> {
  try {
    const allowed = limits.submissions.take(clientAddress)
    if (!allowed.ok) return { outcome: 'too many', retryAfterSeconds: allowed.retryAfterSeconds }
    const result = await submissions.submit(fields, spamTraps.caughtBy(traps), visitorKey(clientAddress), language)
    if (!result.ok) return { outcome: 'invalid', errors: result.errors }
    return result.submission.spam ? { outcome: 'set aside' } : { outcome: 'stored', submission: result.submission }
  } catch (thrown) {
    log.error({ err: thrown }, 'could not receive a submission')
    return { outcome: 'failed' }
  }
}
