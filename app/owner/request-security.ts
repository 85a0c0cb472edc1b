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
