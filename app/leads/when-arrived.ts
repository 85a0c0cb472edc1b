const minuteMs = 60_000

// Made once: each Intl.DateTimeFormat holds ICU data off V8's heap, so one per card per render
// piled up faster than the garbage collector noticed (about 1 MB per inbox render).
const utcFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
})

/** The same on the server and in every browser, so the first render matches: "22 Nov 2026, 14:05 UTC". */
export function absoluteUtc(iso: string): string {
  return `${utcFormat.format(new Date(iso))} UTC`
}

function dayKey(date: Date, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date)
}

/** How long ago, in the viewer's own time zone: "just now", "5 min ago", "yesterday 14:05", "Mon 09:30", "3 Nov, 14:05". */
export function relativeArrival(iso: string, now: Date, timeZone?: string): string {
  const at = new Date(iso)
  const ago = now.getTime() - at.getTime()
  if (ago < minuteMs) return 'just now'
  if (ago < 60 * minuteMs) return `${Math.floor(ago / minuteMs)} min ago`
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at)
  const today = dayKey(now, timeZone)
  if (dayKey(at, timeZone) === today) return `today ${time}`
  if (dayKey(new Date(now.getTime() - 24 * 60 * minuteMs), timeZone) === dayKey(at, timeZone))
    return `yesterday ${time}`
  if (ago < 6 * 24 * 60 * minuteMs) {
    return `${new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short' }).format(at)} ${time}`
  }
  const sameYear = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric' })
  const withYear = sameYear.format(at) !== sameYear.format(now)
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
  }).format(at)
  return `${day}, ${time}`
}
