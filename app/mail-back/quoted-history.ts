// The lines mail programs put above the history they quote: "On Tue, 3 Mar 2026, Farm wrote:"
// (Gmail, Apple Mail, Thunderbird, some split over two lines), Outlook's "-----Original
// Message-----" and its "From: … Sent: …" block, and the same in a few other languages.
const historyStarts = [
  /^\s*On\b.{0,300}\bwrote:\s*$/i,
  /^\s*Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^\s*Am\b.{0,300}\bschrieb\b.{0,200}:\s*$/i,
  /^\s*El\b.{0,300}\bescribió:\s*$/i,
  /^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}\s*$/i,
  /^\s*_{10,}\s*$/,
  /^\s*From:\s.{1,300}$/i,
]

/**
 * The words a person wrote, without the history their mail program quoted below them: cut at
 * the first line that begins a quoted history, and trailing `>` lines. What is left is never
 * empty when they wrote something: a mail that is all quote keeps its text.
 */
export function trimQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const quote = (line: string) => /^\s*>/.test(line)
  // Where the trailing run of quoted (and blank) lines starts, found once from the end: the cut is
  // one pass whatever the mail's length.
  let quotedFrom = lines.length
  for (let at = lines.length - 1; at >= 0 && (lines[at]!.trim() === '' || quote(lines[at]!)); at--) {
    if (quote(lines[at]!)) quotedFrom = at
  }
  let end = lines.length
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!
    const twoLines = at + 1 < lines.length ? `${line} ${lines[at + 1]!.trim()}` : line
    if (
      at === quotedFrom ||
      historyStarts.some((start) => start.test(line)) ||
      (/^\s*On\b/i.test(line) && /\bwrote:\s*$/i.test(twoLines.slice(0, 1_000)))
    ) {
      end = at
      break
    }
  }
  const written = lines.slice(0, end).join('\n').trim()
  return written === '' ? text.trim() : written
}
