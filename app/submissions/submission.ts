/** A submission as the API, the pages and the live link see it. */
export interface Submission {
  id: number
  name: string
  email: string
  message: string
  aiResponse: string | null
  createdAt: string
}

export type LiveMessage = { type: 'NEW_SUBMISSION'; data: Submission } | { type: string; data?: unknown }
