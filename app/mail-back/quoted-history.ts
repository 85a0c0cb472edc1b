// The lines mail programs put above the history they quote, in each language the site speaks:
// "On Tue, 3 Mar 2026, Farm wrote:" (Gmail, Apple Mail, Thunderbird; some split over two lines),
// and Outlook's "-----Original Message-----" and its "From: … Sent: …" block.

/** Each language's "On … wrote:": the word it opens with and its verb, before or after the writer's name. */
const wroteLines = [
  ['On', 'wrote'],
  ['Le', 'a écrit'],
  ['Am', 'schrieb'],
  ['El', 'escribió'],
  ['Il', 'ha scritto'],
  ['Op', 'schreef'],
  ['Em', 'escreveu'],
  // A mail program's line names a date or a time: "Il mio vicino ha scritto:" is the person's own.
].map(([opens, verb]) => new RegExp(`^(?=.*\\d)\\s*${opens}\\s.{0,300}\\s${verb}(?:\\s.{0,200})?:\\s*$`, 'iu'))
const originalMessage =
  /^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|Oorspronkelijk bericht|Mensagem original)\s*-{2,}\s*$/i
/** Outlook's block: "From:" in any language, followed by "Sent:" in any language. */
const outlookFrom = /^\s*(From|De|Von|Da|Van)\s*:\s.{1,300}$/i
const outlookSent = /^\s*(Sent|Envoyé|Gesendet|Enviado(?: el)?|Inviato|Verzonden|Date|Datum|Fecha|Data)\s*:\s/i

function startsHistory(line: string, next: string): boolean {
  if (originalMessage.test(line) || /^\s*_{10,}\s*$/.test(line) || /^\s*From:\s.{1,300}$/i.test(line)) return true
  if (outlookFrom.test(line) && outlookSent.test(next)) return true
  const twoLines = `${line} ${next.trim()}`.slice(0, 1_000)
  return wroteLines.some((wrote) => wrote.test(line) || wrote.test(twoLines))
}

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
    if (at === quotedFrom || startsHistory(lines[at]!, lines[at + 1] ?? '')) {
      end = at
      break
    }
  }
  const written = lines.slice(0, end).join('\n').trim()
  return written === '' ? text.trim() : written
}
