import * as z from 'zod/mini'
import { fields } from './fields'

const notText = 'Must be text, or null to take the default.'

/** One field's value as a change sends it: text, or null to take the default (a number is no text, nor is true). */
const sentValue = z.exactOptional(z.nullable(z.string({ error: notText })))

/**
 * A change of settings, as the API's PATCH body and the page's forms make one: the page's fields
 * (declared.ts) and no other key, so `__proto__` and `constructor` are refused as no setting too.
 * Each value is then held to its field's own checks (field-checks.ts) and readConfig's.
 */
export const settingsChange = z.strictObject(Object.fromEntries(fields.map((field) => [field.key, sentValue])))

/** What a change sets each field to: its text, or null for its default. */
export type SettingsChange = z.output<typeof settingsChange>

/**
 * A change read by its schema: the keys that name no setting, or the values sent as text and each
 * other's refusal. Every refusal is said at once: the values that hold are read again without the
 * refused ones, for the checks after this one to find theirs too.
 */
export function readChange(
  asked: Record<string, unknown>,
): { ok: false; unknown: string[] } | { ok: true; change: SettingsChange; problems: Record<string, string> } {
  const read = settingsChange.safeParse(asked)
  if (read.success) return { ok: true, change: read.data, problems: {} }
  const unknown = read.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []))
  if (unknown.length > 0) return { ok: false, unknown }
  const problems = Object.fromEntries(read.error.issues.map((issue) => [String(issue.path[0]), issue.message]))
  const holding = Object.entries(asked).filter(([key]) => !Object.hasOwn(problems, key))
  return { ok: true, change: settingsChange.parse(Object.fromEntries(holding)), problems }
}
