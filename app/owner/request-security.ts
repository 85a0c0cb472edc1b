/** Whether the request reached the site over HTTPS (behind TRUST_PROXY, as the proxy says). */
export function cameOverHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:'
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Plain HTTP to a name other than this machine: a password and a cookie that anyone on the way can read. */
export function isPlainHttpOffLocalhost(request: Request): boolean {
  const url = new URL(request.url)
  return url.protocol === 'http:' && !loopbackHosts.has(url.hostname)
}

const forwardingHeaders = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'via',
]

/**
 * A browser on the machine the site runs on: a loopback address, a loopback name, and nothing a
 * proxy adds (a proxy on the same machine connects from loopback for every stranger it carries).
 */
export function fromThisMachine(request: Request, clientAddress: string): boolean {
  const loopbackAddress = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(clientAddress)
  return (
    loopbackAddress &&
    loopbackHosts.has(new URL(request.url).hostname) &&
    forwardingHeaders.every((name) => !request.headers.has(name))
  )
}
