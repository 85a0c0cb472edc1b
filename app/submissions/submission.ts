import type { Analysis, SpamSignal } from './analysis/analysis'

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
}

export const submissionStatuses = ['new', 'handled'] as const
export type SubmissionStatus = (typeof submissionStatuses)[number]

/** Every message the live link sends, for the server that writes it and the page that reads it. */
export type LiveMessage =
  { type: 'NEW_SUBMISSION'; data: Submission } | { type: 'SUBMISSION_UPDATED'; data: Submission }

const liveMessageTypes: ReadonlySet<string> = new Set<LiveMessage['type']>(['NEW_SUBMISSION', 'SUBMISSION_UPDATED'])

/** Whether a parsed live message is one this page knows; others are only logged. */
export function isLiveMessage(value: unknown): value is LiveMessage {
  if (typeof value !== 'object' || value === null || !('type' in value) || !('data' in value)) return false
  const { type, data } = value
  return (
    typeof type === 'string' &&
    liveMessageTypes.has(type) &&
    typeof data === 'object' &&
    data !== null &&
    'id' in data &&
    typeof data.id === 'number'
  )
}
