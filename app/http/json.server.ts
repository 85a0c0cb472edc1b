import type * as z from 'zod/mini'
import { json } from '@remix-run/node'
import type { Log } from '#app/log'

/** An API answer before it is written out, so Express and Remix can send the very same one. */
export interface JsonAnswer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export const somethingWentWrong = 'Something went wrong on our side. Please try again.'

/** The one shape of every API error, from a route or from Express: `{"error": "…"}`. */
export const errorBody = (text: string) => ({ error: text })

export const errorAnswer = (status: number, text: string, headers?: Record<string, string>): JsonAnswer => ({
  status,
  body: errorBody(text),
  headers,
})

export const asResponse = ({ status, body, headers }: JsonAnswer) => json(body, { status, headers })

/** Every API error is JSON with an `error` text, never Remix's plain-text default. */
export function jsonError(status: number, text: string, headers?: Record<string, string>) {
  return asResponse(errorAnswer(status, text, headers))
}

/**
 * Runs an API loader or action so that whatever goes wrong is answered in the one error shape:
 * a thrown Response (a guard's 401 or 405) is answered as it is, anything else is logged and
 * answered 500 in JSON, never with Remix's plain-text default.
 */
export async function answeringJson(log: Log, handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle()
  } catch (thrown) {
    // Returned, not thrown on: Remix marks a thrown answer with X-Remix-Catch, which is no part of the API.
    if (thrown instanceof Response) return thrown
    log.error({ err: thrown }, 'an API call failed')
    return jsonError(500, somethingWentWrong)
  }
}

// Like Request.json(): UTF-8, a leading byte order mark dropped.
const utf8 = new TextDecoder()

/**
 * A request body as JSON, or the answer that refuses it: 415 for another media type (named by
 * `what`, e.g. "the submission"), 400 for a body that is not JSON.
 */
export function parseJsonBody(
  contentType: string | null,
  bytes: Uint8Array,
  what: string,
): { ok: true; body: unknown } | { ok: false; answer: JsonAnswer } {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') {
    return { ok: false, answer: errorAnswer(415, `Send ${what} as JSON (Content-Type: application/json).`) }
  }
  try {
    return { ok: true, body: JSON.parse(utf8.decode(bytes)) }
  } catch {
    return { ok: false, answer: errorAnswer(400, 'The request body is not valid JSON.') }
  }
}

/** The Request's JSON body, or the Response that refuses it (see parseJsonBody). */
export async function readJsonBody(
  request: Request,
  what: string,
): Promise<{ ok: true; body: unknown } | { ok: false; answer: Response }> {
  const read = parseJsonBody(request.headers.get('Content-Type'), await requestBytes(request), what)
  return read.ok ? read : { ok: false, answer: asResponse(read.answer) }
}

/**
 * The Request's JSON body as its schema reads it, or the Response that refuses it: 415 and 400 as
 * readJsonBody, and 400 with `wrong` (what to send instead) for JSON of another shape.
 */
export async function readJsonAs<Schema extends z.ZodMiniType>(
  request: Request,
  what: string,
  schema: Schema,
  wrong: string,
): Promise<{ ok: true; body: z.output<Schema> } | { ok: false; answer: Response }> {
  const read = await readJsonBody(request, what)
  if (!read.ok) return read
  const parsed = schema.safeParse(read.body)
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, answer: jsonError(400, wrong) }
}

export const requestBytes = async (request: Request) => new Uint8Array(await request.arrayBuffer())
