import { submissionStatuses, type SubmissionStatus } from '#app/data/enums'

/** What the owner can change on a submission: its status, or that it is not spam after all. */
export type SubmissionChange = { status: SubmissionStatus } | { spam: false }

// Checked by hand rather than with zod: the card's buttons use it too, and the inbox on a phone
// should not load a schema library for two fields.
export function parseSubmissionChange(input: unknown): SubmissionChange | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null
  const [entry, ...more] = Object.entries(input)
  if (!entry || more.length > 0) return null
  const [field, value] = entry
  const status = submissionStatuses.find((known) => known === value)
  if (field === 'status' && status) return { status }
  return field === 'spam' && value === false ? { spam: false } : null
}

export const submissionChangeError = 'Send {"status": "new"} or {"status": "handled"}, or {"spam": false}.'

/** The change a card's button asks for: the button's own name and value. */
export function submissionChangeFromForm(form: FormData): SubmissionChange | null {
  if (form.has('spam')) return form.get('spam') === 'false' ? { spam: false } : null
  return parseSubmissionChange({ status: form.get('status') })
}
