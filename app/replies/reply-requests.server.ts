import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import { requestKeyShape, type Refusal } from './replies.server'

/** A refusal of a reply, in words, with the status the API answers it with. */
export type ReplyRefusal = Omit<Refusal, 'status'> & {
  status: Refusal['status'] | 403 | 429
  retryAfterSeconds?: number
}

type Context = Pick<AppLoadContext, 'replies' | 'cannotReply' | 'limits'>

/** Mail must be set up, and the owner's replies per minute are counted (where the action runs, whatever the path). */
function mayMail(context: Context, session: string): ReplyRefusal | null {
  if (context.cannotReply) return { ok: false, status: 403, error: context.cannotReply }
  const taken = context.limits.replies.take(`owner:${session}`)
  if (taken.ok) return null
  return {
    ok: false,
    status: 429,
    error: `That is as many replies as can be sent in a minute. Wait ${taken.retryAfterSeconds} seconds, then try again.`,
    retryAfterSeconds: taken.retryAfterSeconds,
  }
}

/** The one door every reply goes through, from the API and from the card's form alike. */
export async function sendReply(
  context: Context,
  session: string,
  input: { submissionId: number; text: string; savedReplyId?: number; requestKey?: string },
) {
  if (input.requestKey !== undefined && !requestKeyShape.test(input.requestKey)) {
    return { ok: false, status: 400, error: 'An Idempotency-Key is 8 to 64 letters, digits, - or _.' } as ReplyRefusal
  }
  return mayMail(context, session) ?? context.replies.send(input)
}

/** A failed mail tried again (counted as a reply sent) or set aside. */
export async function settleFailedReply(
  context: Context,
  session: string,
  input: { submissionId: number; replyId: number; action: 'retry' | 'dismiss' },
) {
  const refused =
    input.action === 'retry' ? mayMail(context, session) : context.cannotReply ? mayMail(context, session) : null
  return refused ?? context.replies.settleFailed(input.submissionId, input.replyId, input.action)
}

/** A refusal as the API answers it, in the one error shape (with Retry-After past the rate limit). */
export function refusalAnswer(refusal: Refusal | ReplyRefusal): Response {
  const wait = 'retryAfterSeconds' in refusal ? refusal.retryAfterSeconds : undefined
  return jsonError(refusal.status, refusal.error, wait ? { 'Retry-After': String(wait) } : undefined)
}

/** A page load's part of its reply forms' keys (with the lead and its mail count, at most 40 characters). */
export const newFormKey = () => randomBytes(12).toString('base64url')
