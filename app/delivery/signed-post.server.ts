import { createHmac } from 'node:crypto'
import { propertyOf, textOf } from '#app/outside'

// Within the delivery engine's stop bound (6 s): what is on its way at a stop is answered, or
// left unmarked and sent again, before the site exits, never marked after it.
const answerWithinMs = 5_000

/**
 * The Standard Webhooks signature of one delivery: `v1,` and the base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}` under the secret's key.
 */
function webhookSignature(key: Buffer, messageId: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`
}

/**
 * One signed post (Standard Webhooks): null when the endpoint answered 2xx, else what went wrong,
 * in words that never hold the address or the secret.
 */
export async function postSigned(
  settings: { url: string; key: Buffer },
  messageId: string,
  body: string,
  at: number,
): Promise<string | null> {
  const timestamp = Math.floor(at / 1000)
  try {
    const response = await fetch(settings.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(settings.key, messageId, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(answerWithinMs),
    })
    await response.body?.cancel()
    return response.status >= 200 && response.status < 300 ? null : `The endpoint answered ${response.status}.`
  } catch (error) {
    // The cause's code (ECONNREFUSED, ENOTFOUND), or a timeout; never the address itself.
    const name = textOf(error, 'name')
    const code = textOf(propertyOf(error, 'cause'), 'code')
    const why =
      code !== undefined ? code : name === 'TimeoutError' ? `no answer within ${answerWithinMs / 1000} s` : name
    return `The endpoint could not be reached (${why ?? 'unknown'}).`
  }
}
