import { settingOf } from './declared'
import { fieldOf } from './fields'
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

/** A value's own checks, before readConfig sees it with the rest. */
export function ownProblem(key: string, value: string): string | null {
  const field = fieldOf(key)!
  const longest = field.kind === 'long-text' ? mostChars['long-text'] : mostChars.other
  if (value.length > longest) return `At most ${longest} characters.`
  const control = field.kind === 'long-text' ? /[\u0000-\u0009\u000b-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/
  if (control.test(value)) return 'Only printable characters, please.'
  const server = serverOfPart(key)
  if (key === server?.host && !hostName.test(value))
    return `A host name such as ${key === 'SMTP_HOST' ? 'smtp' : 'imap'}.farm.example.`
  if (field.kind === 'whole-number' && server) {
    const { min, max } = settingOf(key)!
    if (!(/^\d{1,5}$/.test(value) && Number(value) >= min! && Number(value) <= max!))
      return `A port from ${min} to ${max}.`
  }
  if (field.kind === 'choice' && !field.choices?.some((choice) => choice.value === value)) {
    return `One of ${field.choices?.map((choice) => choice.value).join(', ')}.`
  }
  if (field.kind === 'yes-no' && value !== 'true' && value !== 'false') return 'Must be true or false.'
  return null
}
