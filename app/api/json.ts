import { json } from '@remix-run/node'

/** Every API error is JSON with an `error` text, never Remix's plain-text default. */
export function jsonError(status: number, text: string, headers?: HeadersInit) {
  return json({ error: text }, { status, headers })
}

/**
 * The request's JSON body, or the answer that refuses it: 415 for another media type (named
 * by `what`, e.g. "the submission"), 400 for a body that is not JSON.
 */
export async function readJsonBody(
  request: Request,
  what: string,
): Promise<{ ok: true; body: unknown } | { ok: false; answer: Response }> {
  const mediaType = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') {
    return { ok: false, answer: jsonError(415, `Send ${what} as JSON (Content-Type: application/json).`) }
  }
  try {
    return { ok: true, body: await request.json() }
  } catch {
    return { ok: false, answer: jsonError(400, 'The request body is not valid JSON.') }
  }
}
