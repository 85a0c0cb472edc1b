import type { Analysis } from './analysis/analysis'

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
}

export type LiveMessage = { type: 'NEW_SUBMISSION'; data: Submission } | { type: string; data?: unknown }
