import type { Analysis } from '#app/analysis/analysis'
import { intentWords } from '#app/analysis/intent-words'
import { mailtoHref } from '#app/leads/mailbox'
import type { Submission } from '#app/leads/lead'
import { shortTime, zoneWords } from '#app/clock/dates'

/** A mail to the owner, before the sender adds From and To. Names and addresses stay data. */
export interface OwnerMail {
  subject: string
  /** So the owner's reply goes straight back to the visitor. */
  replyTo?: { name: string; address: string }
  text: string
  html: string
}

/** `answer`: the visitor's answer to the farm's mail (and when it came), when the mail tells of it rather than of the lead. */
export type Lead = Pick<Submission, 'id' | 'name' | 'email' | 'message' | 'analysis' | 'createdAt'> & {
  answer?: { text: string; at: string } | null
}

/** Where a mail's links lead, and the farm's clock its times are on. */
export interface MailPlace {
  publicUrl: string | null
  timeZone: string
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  )

const words = (values: string[]) => (values.length > 0 ? values.join(', ') : '—')
const isUrgent = (lead: Lead) => lead.analysis?.urgency.level === 'high'
const leadsCount = (n: number) => `${n} new ${n === 1 ? 'lead' : 'leads'}`

/** When they wrote (the answer, when the mail tells of one), on the farm's clock. */
const writtenAt = (lead: Lead, zone: string) => shortTime(Date.parse(lead.answer?.at ?? lead.createdAt), zone)

function analysisLines(analysis: Analysis | null): string[] {
  if (!analysis) return ['Analysis: none could be made']
  return [
    `About: ${words(analysis.intents.map((intent) => intentWords[intent].tag.toLowerCase()))}`,
    `Products: ${words(analysis.products)}`,
    `Urgency: ${analysis.urgency.level}${analysis.urgency.cues.length > 0 ? ` (${analysis.urgency.cues.join(', ')})` : ''}`,
  ]
}

/** The lead's card on the inbox page: the page that starts with it, scrolled to it. */
export function cardUrl(publicUrl: string, id: number): string {
  return `${publicUrl}/farm-sales?before=${id + 1}#submission-${id}`
}

/** A mail's HTML as a whole document (doctype, language, title), as mail programs and checkers expect. */
const asDocument = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n${body}\n</body></html>`

/**
 * The owner's mail about one lead: what they wrote, or (when they answered the farm's mail) their
 * answer first and what they first wrote under it; the analysis, the card's link, Reply-To them.
 */
export function leadMail(lead: Lead, { publicUrl, timeZone }: MailPlace): OwnerMail {
  const link = publicUrl ? cardUrl(publicUrl, lead.id) : null
  const details = [`When: ${writtenAt(lead, timeZone)} ${zoneWords(timeZone)}`, ...analysisLines(lead.analysis)]
  const said = lead.answer
    ? [
        { heading: 'replied:', words: lead.answer.text },
        { heading: 'Their first message:', words: lead.message },
      ]
    : [{ heading: 'wrote:', words: lead.message }]
  const [first, ...earlier] = said
  const text = [
    `${lead.name} <${lead.email}> ${first!.heading}`,
    '',
    first!.words,
    '',
    ...earlier.flatMap(({ heading, words }) => [heading, words, '']),
    ...details,
    ...(link ? ['', `In the inbox: ${link}`] : []),
    '',
    'Reply to this mail to answer them.',
  ].join('\n')
  const quote = (words: string) => `<blockquote style="white-space:pre-wrap">${escapeHtml(words)}</blockquote>`
  const html = [
    `<p><strong>${escapeHtml(lead.name)}</strong> &lt;${escapeHtml(lead.email)}&gt; ${first!.heading}</p>`,
    quote(first!.words),
    ...earlier.flatMap(({ heading, words }) => [`<p>${heading}</p>`, quote(words)]),
    `<ul>${details.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    link ? `<p><a href="${escapeHtml(link)}">Open it in the inbox</a></p>` : '',
    '<p>Reply to this mail to answer them.</p>',
  ].join('\n')
  const subject = lead.answer
    ? `${lead.name} replied`
    : `${isUrgent(lead) ? '[Urgent] ' : ''}New lead from ${lead.name}`
  return { subject, replyTo: { name: lead.name, address: lead.email }, text, html: asDocument(subject, html) }
}

// Postfix refuses mail over 10 MB by default; text and HTML together stay well under it once encoded.
const mostDigestBytes = 4 * 1024 * 1024
// A digest shows each message's first line, cut here; the link opens the whole card.
const longestLine = 280

function firstLineOf(message: string): string {
  const line = message.split(/\r?\n/, 50).find((text) => text.trim() !== '') ?? ''
  return line.length > longestLine ? `${line.slice(0, longestLine).trimEnd()}…` : line
}

/**
 * Many leads in one mail, each with its first line (cut when long), time, analysis and a link to
 * write back, when mails would flood the owner. As many leads as fit in a digest's bytes go
 * in it, at least one; `leads` says how many, and the rest wait for the next one.
 */
export function digestMail(all: Lead[], { publicUrl, timeZone }: MailPlace): { mail: OwnerMail; leads: number } {
  // The heading, the list's tags and a line break per entry count too.
  let bytes = 1024
  const entries = []
  for (const lead of all) {
    const link = publicUrl ? cardUrl(publicUrl, lead.id) : null
    const firstLine = lead.answer ? `Replied: ${firstLineOf(lead.answer.text)}` : firstLineOf(lead.message)
    const details = [`When: ${writtenAt(lead, timeZone)}`, ...analysisLines(lead.analysis)]
    const entry = { lead, firstLine, details, link }
    const text = [
      '',
      `${lead.name} <${lead.email}>${isUrgent(lead) ? ' [Urgent]' : ''}`,
      `  ${entry.firstLine}`,
      ...entry.details.map((line) => `  ${line}`),
      ...(link ? [`  ${link}`] : []),
    ].join('\n')
    const html = `<li style="margin-bottom:12px"><strong>${escapeHtml(lead.name)}</strong> &lt;<a href="${escapeHtml(mailtoHref(lead.email))}">${escapeHtml(lead.email)}</a>&gt;${isUrgent(lead) ? ' <strong>[Urgent]</strong>' : ''}<br>${escapeHtml(entry.firstLine)}<br><small>${entry.details.map(escapeHtml).join(' · ')}</small>${link ? `<br><a href="${escapeHtml(link)}">Open it in the inbox</a>` : ''}</li>`
    bytes += Buffer.byteLength(text) + Buffer.byteLength(html) + 2
    if (entries.length > 0 && bytes > mostDigestBytes) break
    entries.push({ lead, text, html })
  }
  const leads = entries.map(({ lead }) => lead)
  const subject = `${leads.some(isUrgent) ? '[Urgent] ' : ''}${leadsCount(leads.length)}`
  const heading = `${leadsCount(leads.length)} (times are ${zoneWords(timeZone)}):`
  return {
    mail: {
      subject,
      text: [heading, ...entries.map(({ text }) => text)].join('\n'),
      html: asDocument(subject, [`<p>${heading}</p>`, '<ul>', ...entries.map(({ html }) => html), '</ul>'].join('\n')),
    },
    leads: leads.length,
  }
}
