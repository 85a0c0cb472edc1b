import type { Log } from '#app/log'
import type { Analysis, Enquiry } from './analysis'
import type { LlmReader } from './llm.server'
import type { FarmHours } from './order-reading'
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
  readOffline(form: Enquiry, at: Date, hours: FarmHours | null): Analysis | Promise<Analysis>
  /** Set when AI_API_URL is; otherwise every message is read offline. */
  readWithLlm?: LlmReader
  /** Never given the message or the email. */
  log: Pick<Log, 'warn' | 'error'>
  now?: () => Date
  /** The farm's clock (FARM_TIME_ZONE). */
  timeZone?: () => string
  /** The farm's opening hours, when it has published them: the order's "Saturday morning" is within them. */
  openingHours?: () => FarmHours | null
}

type Settled = { ok: true; analysis: Analysis } | { ok: false; error: unknown }

async function settled(reading: () => Analysis | Promise<Analysis>): Promise<Settled> {
  try {
    return { ok: true, analysis: await reading() }
  } catch (error) {
    return { ok: false, error }
  }
}

/**
 * Reads each message with the language model when one is configured and
 * answers well in time, and offline otherwise. The order is always the offline
 * reader's, read beside the model within the reader's own time limit. It never
 * throws: a submission is stored even when no analysis could be made.
 */
export function createAnalyser({
  readOffline,
  readWithLlm,
  log,
  now = () => new Date(),
  timeZone = () => utc,
  openingHours = () => null,
}: Readers): Analyse {
  const answered = (analysis: Analysis, name: string) => ({ analysis, aiResponse: summarise(analysis, name) })
  return async (form) => {
    const at = wallTime(now().getTime(), timeZone())
    const offline = settled(() => readOffline(form, at, openingHours()))
    if (readWithLlm) {
      const answer = await readWithLlm(form, at)
      if (answer.ok) {
        const read = await offline
        if (!read.ok) tellWhy(read.error, log, 'the order')
        return answered({ ...answer.analysis, order: read.ok ? (read.analysis.order ?? null) : null }, form.name)
      }
      log.warn({ reason: answer.reason }, 'language model analysis not used; reading the message offline')
    }
    const read = await offline
    if (read.ok) return answered(read.analysis, form.name)
    tellWhy(read.error, log, 'the submission')
    return { analysis: null, aiResponse: null }
  }
}

function tellWhy(error: unknown, log: Readers['log'], without: string) {
  if (error instanceof ReadingTimedOut) {
    log.warn({ reason: error.message }, `offline analysis ran out of time; storing ${without} without one`)
  } else {
    log.error({ err: error }, `offline analysis failed; storing ${without} without one`)
  }
}
