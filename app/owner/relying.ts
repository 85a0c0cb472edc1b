/** Where a passkey ceremony runs, from the request the browser made: its host name and origin. */
export function relyingOn(request: Request) {
  const url = new URL(request.url)
  return { rpID: url.hostname, origin: url.origin }
}
