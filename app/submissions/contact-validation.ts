import * as z from 'zod/mini'
import { isEmailAddress } from '#app/leads/mailbox'
import type { ContactField, ContactForm, ContactFormErrors } from './contact-fields'
import { isJsonObject } from '#app/http/json-object'
import type { FormMessages } from '#app/language/compiled/messages'

/**
 * The longest each field may be, in characters, beside the checks that hold a field to it: in
 * contact-fields.ts it would make that file a script of its own, shared by the form and its checks.
 */
export const contactLimits: Record<ContactField, number> = {
  name: 100,
  email: 254,
  message: 5000,
}

const controlCharacters = /[\u0000-\u001f\u007f]/
// A message may span lines, so newlines (CRLF from browsers) and tabs are fine.
const controlCharactersButLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

function textField(field: ContactField, messages: FormMessages, forbidden: RegExp) {
  const max = contactLimits[field]
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? messages.fieldRequired({ field })
          : messages.fieldNotText({ field }),
    })
    .check(
      // Values are stored as typed (not trimmed), but blank is still missing.
      z.refine((value) => value.trim() !== '', { error: messages.fieldRequired({ field }), abort: true }),
      z.maxLength(max, { error: messages.fieldTooLong({ field, max }), abort: true }),
      z.refine((value) => !forbidden.test(value), { error: messages.fieldControlCharacters({ field }) }),
    )
}

function contactFormSchema(messages: FormMessages) {
  return z.object({
    name: textField('name', messages, controlCharacters),
    email: textField('email', messages, controlCharacters).check(
      z.refine(isEmailAddress, { error: messages.invalidEmail() }),
    ),
    message: textField('message', messages, controlCharactersButLineBreaks),
  })
}

// One schema per language's messages, made when it is first asked for.
const schemas = new WeakMap<FormMessages, ReturnType<typeof contactFormSchema>>()
function schemaIn(messages: FormMessages) {
  let schema = schemas.get(messages)
  if (!schema) schemas.set(messages, (schema = contactFormSchema(messages)))
  return schema
}

export type ContactFormResult = { success: true; data: ContactForm } | { success: false; errors: ContactFormErrors }

/** Validates a contact form the same way in the browser and on the server, its refusals in the page's language. */
export function parseContactForm(input: unknown, messages: FormMessages): ContactFormResult {
  const result = schemaIn(messages).safeParse(isJsonObject(input) ? input : {})
  if (result.success) return { success: true, data: result.data }
  const errors: ContactFormErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField
    errors[field] ??= issue.message
  }
  return { success: false, errors }
}
