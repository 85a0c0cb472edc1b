import type { AppLoadContext } from '@remix-run/node'
import { contactFields, thankYouMessage, tooManySubmissions } from '../submissions/contact-fields'
import { errorAnswer, parseJsonBody, somethingWentWrong, type JsonAnswer } from './json'

export interface PostedSubmission {
  contentType: string | null
  body: Uint8Array
  clientAddress: string
}

/**
 * POST /api/submissions from start to answer: the rate limit, the body, and the service.
 * The route module answers it, and so does Express directly for its plain spelling (a third
 * of the cost without Remix's Request and Response); both call this, so every limit holds
 * alike on either way in.
 */
export async function receiveSubmission(
  { submissions, spamTraps, limits, log }: Pick<AppLoadContext, 'submissions' | 'spamTraps' | 'limits' | 'log'>,
  posted: PostedSubmission,
): Promise<JsonAnswer> {
  try {
    const allowed = limits.submissions.take(posted.clientAddress)
    if (!allowed.ok) return errorAnswer(429, tooManySubmissions, { 'Retry-After': String(allowed.retryAfterSeconds) })
    const read = parseJsonBody(posted.contentType, posted.body, 'the submission')
    if (!read.ok) return read.answer
    const body = read.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return errorAnswer(400, 'Send a JSON object with name, email and message.')
    }
    const result = await submissions.submit(body, spamTraps.caughtBy(body))
    if (!result.ok) {
      const messages = contactFields.flatMap((field) => result.errors[field] ?? [])
      return { status: 400, body: { error: `${messages.join('. ')}.`, errors: result.errors } }
    }
    // Set aside as spam: thanked like everyone else, so a bot learns nothing.
    if (result.submission.spam) return { status: 202, body: { message: thankYouMessage } }
    return { status: 201, body: { message: thankYouMessage, data: result.submission } }
  } catch (thrown) {
    log.error({ err: thrown }, 'submissions API failed')
    return errorAnswer(500, somethingWentWrong)
  }
}
