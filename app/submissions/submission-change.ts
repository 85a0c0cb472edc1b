import * as z from 'zod/mini'
import { submissionStatuses } from './submission'

/** What the owner can change on a submission: its status, or that it is not spam after all. */
const submissionChangeSchema = z.union([
  z.strictObject({ status: z.enum(submissionStatuses) }),
  z.strictObject({ spam: z.literal(false) }),
])

export type SubmissionChange = z.infer<typeof submissionChangeSchema>

export function parseSubmissionChange(input: unknown): SubmissionChange | null {
  const result = submissionChangeSchema.safeParse(input)
  return result.success ? result.data : null
}

export const submissionChangeError = 'Send {"status": "new"} or {"status": "handled"}, or {"spam": false}.'
