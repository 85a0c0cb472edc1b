/** The names Intl lists, by their lower-case spelling: a name typed in any case is kept as listed. */
let listed: Map<string, string> | undefined

/**
 * A time zone by its IANA name (Europe/London, Pacific/Auckland), as the farm's clock takes it:
 * the name as Intl lists it, or null when this machine's Intl knows no such zone. An offset
 * ('+13:00') is no zone: it would be wrong half the year.
 */
export function knownTimeZone(name: string): string | null {
  const trimmed = name.trim()
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(trimmed)) return null
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: trimmed })
  } catch {
    return null
  }
  listed ??= new Map([...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone]))
  return listed.get(trimmed.toLowerCase()) ?? trimmed
}
