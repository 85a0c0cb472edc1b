import type { IncomingMessage } from 'node:http'

/** Express's compiled `trust proxy` setting: whether the hop at `index` (0 = the socket's peer) is a trusted proxy. */
export type TrustProxy = (address: string, index: number) => boolean

/**
 * The client's address as Express's `req.ip` works it out, for requests that never reach
 * Express (WebSocket upgrades): the nearest hop that is not a trusted proxy.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse()
  const hops = [req.socket.remoteAddress ?? '', ...forwarded]
  for (let index = 0; index < hops.length - 1; index++) {
    if (!trust(hops[index]!, index)) return hops[index]!
  }
  return hops[hops.length - 1]!
}
