import type { Log } from '#app/log'
import type { Analysis, Enquiry } from './analysis'
import type { LlmReader } from './llm.server'
import { ReadingTimedOut } from './reading-pool.server'
import { summarise } from './summary'
import { utc, wallTime } from '#app/clock/farm-clock'

export interface AnalysedMessage {
  analysis: Analysis | null
  /** The analysis in two or three sentences, as the owner reads it on the card. */
  aiResponse: string | null
}

export type Analyse = (form: Enquiry) => Promise<AnalysedMessage>

interface Readers {
  /**
   * The built-in reader; in the server, a worker thread with a deadline (reading-pool.server.ts).
   * `at` is the farm's wall clock (wallTime): "Friday" and "12 June" are days on its calendar.
   */
  readOffline(form: Enquiry, at: Date): Analysis | Promise<Analysis>
  /** Set when AI_API_URL is; otherwise every message is read offline. */
  readWithLlm?: LlmReader
  /** Never given the message or the email. */
  log: Pick<Log, 'warn' | 'error'>
  now?: () => Date
  /** The farm's clock (FARM_TIME_ZONE). */
  timeZone?: () => string
}

/**
 * Reads each message with the language model when one is configured and
 * answers well in time, and offline otherwise. It never throws: a submission
 * is stored even when no analysis could be made.
 */
export function createAnalyser({
  readOffline,
  readWithLlm,
  log,
  now = () => new Date(),
  timeZone = () => utc,
}: Readers): Analyse {
  return async (form) => {
    const at = wallTime(now().getTime(), timeZone())
    if (readWithLlm) {
      const answer = await readWithLlm(form, at)
      if (answer.ok) return { analysis: answer.analysis, aiResponse: summarise(answer.analysis, form.name) }
      log.warn({ reason: answer.reason }, 'language model analysis not used; reading the message offline')
    }
    try {
      const analysis = await readOffline(form, at)
      return { analysis, aiResponse: summarise(analysis, form.name) }
    } catch (error) {
      if (error instanceof ReadingTimedOut) {
        log.warn({ reason: error.message }, 'offline analysis ran out of time; storing the submission without one')
      } else {
        log.error({ err: error }, 'offline analysis failed; storing the submission without one')
      }
      return { analysis: null, aiResponse: null }
    }
  }
}
