import * as z from 'zod/mini'
import { submissionStatuses } from '#app/submissions/submission'

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

/** The change a card's button asks for: the button's own name and value. */
export function submissionChangeFromForm(form: FormData): SubmissionChange | null {
  if (form.has('spam')) return form.get('spam') === 'false' ? { spam: false } : null
  return parseSubmissionChange({ status: form.get('status') })
}
