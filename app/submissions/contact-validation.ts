import * as z from 'zod/mini'
import { isEmailAddress } from '#app/leads/mailbox'
import { contactLimits, type ContactField, type ContactForm, type ContactFormErrors } from './contact-fields'
import { isJsonObject } from '#app/http/json-object'

const controlCharacters = /[\u0000-\u001f\u007f]/
// A message may span lines, so newlines (CRLF from browsers) and tabs are fine.
const controlCharactersButLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

function textField(label: string, max: number, forbidden: RegExp) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`,
    })
    .check(
      // Values are stored as typed (not trimmed), but blank is still missing.
      z.refine((value) => value.trim() !== '', { error: `${label} is required`, abort: true }),
      z.maxLength(max, { error: `${label} must be at most ${max.toLocaleString('en-US')} characters`, abort: true }),
      z.refine((value) => !forbidden.test(value), { error: `${label} must not contain control characters` }),
    )
}

const contactFormSchema = z.object({
  name: textField('Name', contactLimits.name, controlCharacters),
  email: textField('Email', contactLimits.email, controlCharacters).check(
    z.refine(isEmailAddress, { error: 'Invalid email format' }),
  ),
  message: textField('Message', contactLimits.message, controlCharactersButLineBreaks),
})

export type ContactFormResult = { success: true; data: ContactForm } | { success: false; errors: ContactFormErrors }

/** Validates a contact form the same way in the browser and on the server. */
export function parseContactForm(input: unknown): ContactFormResult {
  const result = contactFormSchema.safeParse(isJsonObject(input) ? input : {})
  if (result.success) return { success: true, data: result.data }
  const errors: ContactFormErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField
    errors[field] ??= issue.message
  }
  return { success: false, errors }
}
