import type { Submission } from '#app/leads/lead'

/** What a push to the owner's phone carries (encrypted for that browser alone), read by the service worker. */
export type PushMessage =
  | {
      type: 'NEW_SUBMISSION'
      id: number
      name: string
      /** The analysis in words, at most `pushLimits.summary` characters. */
      summary: string
      /** The lead's card: `/farm-sales#submission-{id}`, absolute when PUBLIC_URL is set. */
      url: string
      /** Told because they answered the farm's mail (the summary is their answer's start). */
      replied?: boolean
    }
  | {
      /** A burst: more leads in a minute than are pushed one by one, told together. */
      type: 'NEW_SUBMISSIONS'
      /** The burst's first lead, which names it. */
      from: number
      count: number
      url: string
    }

export const pushLimits = {
  /** Phones and browsers one owner may have notified. */
  subscriptions: 20,
  /** A PushSubscription's JSON, in bytes. */
  subscriptionBytes: 2048,
  summary: 120,
  /** Leads pushed one by one to a phone in a minute; more are told as one 'N new leads'. */
  singlesPerMinute: 3,
} as const

/** What the service worker tells an open inbox tab when a notification is tapped: show this card. */
export interface OpenLeadMessage {
  type: 'OPEN_LEAD'
  /** The card's path and hash on the site, e.g. `/farm-sales#submission-12`. */
  path: string
}

/** The inbox: the service worker's scope, and where every notification leads. */
export const inboxPath = '/farm-sales'

/** The address of one lead's card in the inbox. */
export const leadCardPath = (id: number) => `${inboxPath}#submission-${id}`

/** The push a lead is told by: its name and the analysis in words; `siteUrl` (PUBLIC_URL) makes the address absolute. */
export function leadPushMessage(
  lead: Pick<Submission, 'id' | 'name' | 'aiResponse'>,
  siteUrl: string | null,
  answer: string | null = null,
): PushMessage {
  const words = (answer ?? lead.aiResponse)?.replace(/\s+/g, ' ').trim() || 'Open the inbox to read it.'
  return {
    type: 'NEW_SUBMISSION',
    id: lead.id,
    name: lead.name,
    summary: words.length > pushLimits.summary ? `${words.slice(0, pushLimits.summary - 1).trimEnd()}…` : words,
    url: `${siteUrl ?? ''}${leadCardPath(lead.id)}`,
    ...(answer !== null ? { replied: true } : {}),
  }
}

/** What the notification says, for one lead or for a burst. */
export function notificationFor(message: PushMessage): { title: string; body: string; tag: string } {
  if (message.type === 'NEW_SUBMISSION') {
    // The in-tab alert's tag too: a lead shown by both is one notification.
    const title = message.replied ? `${message.name} replied` : `New lead: ${message.name}`
    return { title, body: message.summary, tag: `submission-${message.id}` }
  }
  return {
    title: message.count === 1 ? '1 new lead' : `${message.count} new leads`,
    body: 'More arrived in a minute than are told one by one. Open the inbox to read them.',
    tag: `leads-from-${message.from}`,
  }
}

/** A push's text, read back: the message when it is one of ours, else null (shown as nothing). */
export function readPushMessage(text: string): PushMessage | null {
  try {
    const value = JSON.parse(text) as Partial<Record<string, unknown>>
    if (value.type === 'NEW_SUBMISSION' && typeof value.id === 'number' && typeof value.url === 'string') {
      return {
        type: 'NEW_SUBMISSION',
        id: value.id,
        name: String(value.name ?? ''),
        summary: String(value.summary ?? ''),
        url: value.url,
        ...(value.replied === true ? { replied: true } : {}),
      }
    }
    if (
      value.type === 'NEW_SUBMISSIONS' &&
      typeof value.from === 'number' &&
      typeof value.count === 'number' &&
      typeof value.url === 'string'
    ) {
      return { type: 'NEW_SUBMISSIONS', from: value.from, count: value.count, url: value.url }
    }
  } catch {
    // Not JSON: not ours.
  }
  return null
}
