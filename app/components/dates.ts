// Fixed names: a browser's and a server's Intl data may spell September 'Sep' or 'Sept'.
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A day and month, as a chart's axis shows them ('26 Nov'), in UTC. */
export function shortDay(ms: number): string {
  const at = new Date(ms)
  return `${at.getUTCDate()} ${months[at.getUTCMonth()]}`
}

/** A day as the owner's pages show it ('26 Nov 2026'), in UTC, so the server's page and the browser's agree. */
export function shortDate(ms: number): string {
  return `${shortDay(ms)} ${new Date(ms).getUTCFullYear()}`
}

/** A moment, to the minute, in UTC: '26 Nov 2026, 14:05 UTC'. */
export function shortTime(ms: number): string {
  const at = new Date(ms)
  return `${shortDate(ms)}, ${at.toISOString().slice(11, 16)} UTC`
}
