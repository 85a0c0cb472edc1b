import * as z from 'zod/mini'
import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { refuse, requestKeyShape, type Refusal } from '#app/http/refusal.server'
import type { TeamMember } from '#app/owner/owner-access.server'

type Context = Pick<AppLoadContext, 'replies' | 'cannotReply' | 'limits'>

/** A reply as the API takes it. */
export const replySchema = z.object({ text: z.string() })

/** What the API does with a failed reply. */
export const settlingSchema = z.object({ action: z.enum(['retry', 'dismiss']) })

/**
 * A person's replies per minute, counted where the action runs whatever the path, and only
 * for mail that will go out: one person, however many browsers they are signed in on. An order's
 * confirmation is a mail to the visitor too, and counts.
 */
export function withinLimit({ limits }: Context, who: TeamMember): Refusal | null {
  const taken = limits.replies.take(`member-${who.id}`)
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
  input: { submissionId: number; text: string; savedReplyId?: number; requestKey?: string },
  who: TeamMember,
): Promise<Awaited<ReturnType<Context['replies']['send']>>> {
  if (context.cannotReply) return refuse(403, context.cannotReply)
  if (input.requestKey !== undefined && !requestKeyShape.test(input.requestKey)) {
    return refuse(400, 'An Idempotency-Key is 8 to 64 letters, digits, - or _.')
  }
  return context.replies.send({ ...input, by: who.id, mayStore: () => withinLimit(context, who) })
}

/** A failed mail tried again (counted as a reply sent) or set aside. */
export async function settleFailedReply(
  context: Context,
  input: { submissionId: number; replyId: number; action: 'retry' | 'dismiss' },
  who: TeamMember,
): Promise<Awaited<ReturnType<Context['replies']['settleFailed']>>> {
  if (context.cannotReply) return refuse(403, context.cannotReply)
  const limited = input.action === 'retry' ? withinLimit(context, who) : null
  return limited ?? context.replies.settleFailed(input.submissionId, input.replyId, input.action)
}

/** A page load's part of its reply forms' keys (with the lead and the card's sends, at most 40 characters). */
export const newFormKey = () => randomBytes(12).toString('base64url')
