import type { Analysis, SpamSignal } from '#app/analysis/analysis'
import type { Reply } from '#app/replies/reply'

/** What set a submission aside: one of the form's traps, or the analysis. */
export type SpamReason = 'honeypot' | 'filled_too_fast' | SpamSignal

/** A submission as the API, the pages and the live link see it. */
export interface Submission {
  id: number
  name: string
  email: string
  message: string
  /** The analysis in words, shown as "AI Analysis". */
  aiResponse: string | null
  /** Null for submissions stored before analyses were kept, or when none could be made. */
  analysis: Analysis | null
  createdAt: string
  /** Why it was set aside as spam; null for the inbox. */
  spam: SpamReason[] | null
  /** Whether the owner has dealt with it. */
  status: SubmissionStatus
  /** Stored without an analysis (it failed or ran out of time), to be read again shortly. */
  awaitingAnalysis: boolean
  /** The latest mails the farm sent the visitor about it (replies, the acknowledgement), oldest first. */
  replies: Reply[]
  /** How many there are in all; the card says how many earlier ones it leaves out. */
  replyCount: number
}

export const submissionStatuses = ['new', 'handled'] as const
export type SubmissionStatus = (typeof submissionStatuses)[number]

const submissionId = /^\d{1,15}$/

/** Whether URL or form text names a submission: a whole number, as ids are. */
export function isSubmissionId(text: string): boolean {
  return submissionId.test(text)
}

/**
 * How many submissions in the inbox (spam left out) carry a tag the analysis gave, or a
 * status: what the filters and the header's "new" badge show.
 */
export interface TagCount {
  /** `delivery` counts mails to visitors that failed and wait for the owner (value `failed`). */
  kind: 'intent' | 'product' | 'urgency' | 'status' | 'delivery'
  value: string
  count: number
  /**
   * When the server read it, as a number that only rises (microseconds, or one more than the
   * last reading): of two readings of a count, however they travelled, the later one is true.
   */
  at: number
}
