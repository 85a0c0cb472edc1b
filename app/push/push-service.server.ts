import type { FarmDatabase } from '#app/data/database.server'
import type { PushSubscriptionRow } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { Log } from '#app/log'
import type { PushMessage } from './push-message'
import type { VapidKeys } from './vapid.server'
import { propertyOf, textOf } from '#app/outside'

export interface PushSettings {
  keys: VapidKeys
  /** The VAPID subject push services may contact: `mailto:` or `https:`. */
  subject: string
  /** PUBLIC_URL, when set: the notification opens an absolute address. */
  siteUrl: string | null
}

/** What the pushes are sent with. */
export interface PushNeeds {
  engine: DeliveryEngine
  db: FarmDatabase
  writes: Writes
  log: Log
  /** The push settings now: null while push services have no contact (what was owed waits). */
  settings: () => PushSettings | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS, as the mail's), then twice as long each time. */
  retryBaseMs: number
}

const dayMs = 24 * 60 * 60 * 1000
/** Until a push service answers; then it is tried again. */
// Within the delivery engine's stop bound (6 s): what is on its way at a stop is answered, or
// left unmarked and sent again, before the site exits, never marked after it.
const answerWithinMs = 5_000

/** How one push went: a 404/410 means the phone is gone; 429, 5xx and no answer are tried again. */
export type PushOutcome = { sent: true } | { sent: false; gone: boolean; retry: boolean; why: string }

/** What web-push's sendNotification needs, and what it answers or throws. */
type Send = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  options: Record<string, unknown>,
) => Promise<{ statusCode: number }>

let send: Send | undefined
// Loaded on the first push only: a site whose owner never turns notifications on never pays for it.
async function sender(): Promise<Send> {
  send ??= (await import('web-push')).default.sendNotification as unknown as Send
  return send
}

/** One message to one phone, through its push service, and what the service's answer means. */
export async function push(
  to: PushSubscriptionRow,
  message: PushMessage,
  { urgent, topic, settings }: { urgent: boolean; topic: string; settings: PushSettings },
): Promise<PushOutcome> {
  try {
    await (
      await sender()
    )({ endpoint: to.endpoint, keys: { p256dh: to.p256dh, auth: to.auth } }, JSON.stringify(message), {
      vapidDetails: { subject: settings.subject, ...settings.keys },
      TTL: dayMs / 1000,
      urgency: urgent ? 'high' : 'normal',
      topic,
      contentEncoding: 'aes128gcm',
      timeout: answerWithinMs,
    })
    return { sent: true }
  } catch (error) {
    const status = propertyOf(error, 'statusCode')
    if (typeof status === 'number') {
      return {
        sent: false,
        gone: status === 404 || status === 410,
        retry: status === 429 || status >= 500,
        why: `The push service answered ${status}.`,
      }
    }
    // The cause's code (ECONNREFUSED, ENOTFOUND, a certificate's), never the address itself.
    const why = textOf(error, 'code') ?? String(textOf(error, 'message') ?? error).slice(0, 80)
    return { sent: false, gone: false, retry: true, why: `The push service could not be reached (${why}).` }
  }
}
