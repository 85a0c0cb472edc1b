import { submissionStatuses, type SubmissionStatus } from '#app/data/enums'

/** What the owner can change on a submission: its status, or that it is not spam after all. */
export type SubmissionChange = { status: SubmissionStatus } | { spam: false }

// Checked by hand rather than with zod: the card's buttons use it too, and the inbox on a phone
// should not load a schema library for two fields.
export function parseSubmissionChange(input: unknown): SubmissionChange | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null
  const fields = Object.keys(input)
  if (fields.length !== 1) return null
  const { status, spam } = input as { status?: unknown; spam?: unknown }
  if (fields[0] === 'status' && submissionStatuses.includes(status as SubmissionStatus)) {
    return { status: status as SubmissionStatus }
  }
  return fields[0] === 'spam' && spam === false ? { spam: false } : null
}

export const submissionChangeError = 'Send {"status": "new"} or {"status": "handled"}, or {"spam": false}.'

/** The change a card's button asks for: the button's own name and value. */
export function submissionChangeFromForm(form: FormData): SubmissionChange | null {
  if (form.has('spam')) return form.get('spam') === 'false' ? { spam: false } : null
  return parseSubmissionChange({ status: form.get('status') })
}
