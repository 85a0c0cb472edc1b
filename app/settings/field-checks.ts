import * as z from 'zod/mini'
import { settingOf } from './declared'
import { fields, type Field } from './fields'
import { hostName, serverOfPart, servers } from './servers-in-parts'

/** A value the page or the API may store: one line (or lines, for the products), of a sensible length. */
const mostChars = { 'long-text': 10_000, other: 500 }

/** Which field a readConfig refusal speaks of: the variable it names first. */
export function keyOfRefusal(message: string): string {
  const named = /^([A-Z][A-Z_]+)/.exec(message)?.[1] ?? ''
  return servers.find((server) => server.url === named)?.host ?? named
}

/** The refusal without the variable's name, which the page shows beside its field. */
export function inFieldWords(message: string): string {
  const rest = message.replace(/^[A-Z][A-Z_]+(?:=\w+)?:?\s*/, '')
  return rest.charAt(0).toUpperCase() + rest.slice(1)
}

/** The checks a server part's own kind adds: a host name, or a port within its declared limits. */
function serverPartChecks(field: Field) {
  const server = serverOfPart(field.key)
  if (field.key === server?.host) {
    return [z.regex(hostName, `A host name such as ${field.key === 'SMTP_HOST' ? 'smtp' : 'imap'}.farm.example.`)]
  }
  if (field.kind !== 'whole-number' || !server) return []
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = settingOf(field.key) ?? {}
  const isPort = (value: string) => /^\d{1,5}$/.test(value) && Number(value) >= min && Number(value) <= max
  return [z.refine<string>(isPort, `A port from ${min} to ${max}.`)]
}

/**
 * A field's value as the page or the API may store it, checked by its declared kind (the other
 * whole numbers' limits are readConfig's, which says them). Checks rather than an enum for a choice
 * or yes and no: every check runs in this order, and the first refusal is the one said beside the
 * field, so a value too long is 'At most 500 characters.' whatever its kind.
 */
function storedValue(field: Field) {
  const longest = field.kind === 'long-text' ? mostChars['long-text'] : mostChars.other
  const control = field.kind === 'long-text' ? /[\u0000-\u0009\u000b-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/
  const choices = field.choices?.map((choice) => choice.value) ?? []
  return z.string().check(
    z.maxLength(longest, `At most ${longest} characters.`),
    z.refine<string>((value) => !control.test(value), 'Only printable characters, please.'),
    ...serverPartChecks(field),
    ...(field.kind === 'choice'
      ? [z.refine<string>((value) => choices.includes(value), `One of ${choices.join(', ')}.`)]
      : []),
    ...(field.kind === 'yes-no'
      ? [z.refine<string>((value) => value === 'true' || value === 'false', 'Must be true or false.')]
      : []),
  )
}

/** Every field's own checks, by its key. */
const storedValues = new Map(fields.map((field) => [field.key, storedValue(field)]))

/** A stored value's own refusal, before readConfig sees it with the rest; null when it holds. */
export function ownProblem(key: string, value: string): string | null {
  const read = storedValues.get(key)?.safeParse(value)
  return read?.error?.issues[0]?.message ?? null
}
