import * as z from 'zod/mini'
import { ECDH } from 'node:crypto'

/** A browser's PushSubscription, checked: what the server may encrypt for and post to. */
export interface OwnerSubscription {
  endpoint: string
  p256dh: string
  auth: string
}

const base64url = /^[A-Za-z0-9_-]+={0,2}$/

function decoded(text: unknown): Buffer | null {
  if (typeof text !== 'string' || !base64url.test(text)) return null
  return Buffer.from(text.replace(/=+$/, ''), 'base64url')
}

// Letters, digits and hyphens in dot-separated labels: nothing another URL parser could read as
// the end of the host (web-push reads the address again with Node's legacy parser, which stops at
// `;` or `{` where the WHATWG one does not).
const plainHost = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/

/** Whether an address is on one of the push services the server may post to. */
export function onPushHost(url: URL, hosts: readonly string[]): boolean {
  if (!plainHost.test(url.hostname)) return false
  const port = url.port || '443'
  return hosts.some((entry) => {
    const [host, entryPort = '443'] = entry.split(':') as [string, string?]
    if (entryPort !== port) return false
    return host.startsWith('*.') ? url.hostname.endsWith(host.slice(1)) : url.hostname === host
  })
}

const subscriptionShape = z.object({
  endpoint: z.string(),
  keys: z.object({ p256dh: z.unknown(), auth: z.unknown() }),
})

/** `DELETE /api/push-subscriptions`: which phone to stop notifying. */
export const stoppingSchema = z.object({ endpoint: z.string() })

/**
 * A PushSubscription's JSON (`{endpoint, keys: {p256dh, auth}}`) checked, or why it is not one:
 * an https address on a known push service (so no one can make the server post anywhere else),
 * a P-256 public key (65 bytes, a point on the curve) and a 16-byte auth secret.
 */
export function readPushSubscription(
  body: unknown,
  hosts: readonly string[],
): { ok: true; subscription: OwnerSubscription } | { ok: false; error: string } {
  const read = subscriptionShape.safeParse(body)
  if (!read.success) {
    return {
      ok: false,
      error:
        'Send the browser\'s PushSubscription as JSON: {"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}.',
    }
  }
  const { endpoint, keys } = read.data
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return { ok: false, error: 'The endpoint is not a web address.' }
  }
  if (url.protocol !== 'https:') return { ok: false, error: 'The endpoint must be an https:// address.' }
  if (url.username || url.password) return { ok: false, error: 'The endpoint must not hold a user name or password.' }
  if (!onPushHost(url, hosts)) {
    return { ok: false, error: `The endpoint is not on a known push service (PUSH_HOSTS): ${url.host}.` }
  }
  const p256dh = decoded(keys.p256dh)
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 4) {
    return { ok: false, error: "keys.p256dh must be the browser's P-256 public key: 65 bytes in base64url." }
  }
  try {
    ECDH.convertKey(p256dh, 'prime256v1')
  } catch {
    return { ok: false, error: 'keys.p256dh is not a point on the P-256 curve.' }
  }
  const auth = decoded(keys.auth)
  if (!auth || auth.length !== 16) {
    return { ok: false, error: "keys.auth must be the browser's auth secret: 16 bytes in base64url." }
  }
  return {
    ok: true,
    subscription: { endpoint: url.href, p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') },
  }
}
