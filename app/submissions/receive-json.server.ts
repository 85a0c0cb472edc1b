import { errorAnswer, parseJsonBody, somethingWentWrong, type JsonAnswer } from '#app/http/json.server'
import { isLanguage } from '#app/language/languages'
import { catalogs } from '#app/language/catalogs.server'
import { contactFields } from './contact-fields'
import { receive, type ReceiveNeeds } from './receive.server'

export interface PostedJson {
  contentType: string | null
  body: Uint8Array
  clientAddress: string
}

/**
 * POST /api/submissions: a JSON body in, through `receive`, a JSON answer out. The route
 * module answers it for every spelling, and Express directly for the plain one (a third of
 * the cost without Remix's Request and Response); both call this.
 */
export async function receiveJson(needs: ReceiveNeeds, posted: PostedJson): Promise<JsonAnswer> {
  const read = parseJsonBody(posted.contentType, posted.body, 'the submission')
  if (!read.ok) return read.answer
  const body = read.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return errorAnswer(400, 'Send a JSON object with name, email and message.')
  }
  // The home page's own form names its language: the visitor is answered in it. Any other client, in English.
  const named: unknown = 'language' in body ? body.language : null
  const language = typeof named === 'string' && isLanguage(named) ? named : null
  const messages = catalogs[language ?? 'en']
  const received = await receive(needs, { fields: body, traps: body, clientAddress: posted.clientAddress, language })
  switch (received.outcome) {
    case 'stored':
      return { status: 201, body: { message: messages.thankYou(), data: received.submission } }
    case 'set aside':
      return { status: 202, body: { message: messages.thankYou() } }
    case 'invalid': {
      const messages = contactFields.flatMap((field) => received.errors[field] ?? [])
      return { status: 400, body: { error: `${messages.join('. ')}.`, errors: received.errors } }
    }
    case 'too many':
      return errorAnswer(429, messages.tooManySubmissions(), { 'Retry-After': String(received.retryAfterSeconds) })
    case 'failed':
      return errorAnswer(500, somethingWentWrong)
  }
}
