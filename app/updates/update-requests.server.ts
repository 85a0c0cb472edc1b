import * as z from 'zod/mini'
import type { AppLoadContext } from '@remix-run/node'
import type { TeamMember } from '#app/owner/owner-access.server'
import { refuse, type Refusal } from '#app/http/refusal.server'
import type { Subscribers } from './subscribers.server'
import { updateError, type Audience } from './update'
import { updateFooter } from './update-footer.server'
import { updateMail, type UpdateMailSettings } from './update-sender.server'
import type { SignedLinks } from './signed-links.server'
import type { Updates } from './updates.server'
import type { ReturnedMails } from './returned-mails.server'

/** What the updates page and API reach (built once in server/services.ts). */
export interface UpdatesDesk {
  subscribers: Subscribers
  updates: Updates
  /** The bounces and complaints read back from the farm's mailbox. */
  returned: ReturnedMails
  links: SignedLinks
  settings: UpdateMailSettings
  sendNow: (mail: ReturnType<typeof updateMail>) => Promise<void>
}

type Context = Pick<AppLoadContext, 'updates' | 'cannotSendUpdates' | 'limits'>
type Ready = { ok: true; desk: UpdatesDesk } | Refusal

/** The desk, or why the owner cannot send updates from here (403, saying what to set). */
export function updatesDesk({ updates, cannotSendUpdates }: Context): Ready {
  if (cannotSendUpdates || !updates) return refuse(403, cannotSendUpdates ?? 'Updates are off.')
  return { ok: true, desk: updates }
}

/** What the test mail's unsubscribe link says: each subscriber's own mail has theirs. */
export const testToken = 'test'

/**
 * Exactly the mail one recipient would get, for the composer's preview and the owner's test: the
 * first subscriber the audience reaches (their name, their link), or "friend" when it reaches nobody.
 */
export function previewMail(desk: UpdatesDesk, input: { subject: string; text: string; audience: Audience }) {
  const sample = desk.updates.sample(input.audience)
  const unsubscribeUrl = sample
    ? desk.links.unsubscribeUrl(sample.id, sample.addressKey)
    : `${desk.settings.siteUrl}/updates/unsubscribe?token=${testToken}`
  return {
    to: sample ? { name: sample.name, email: sample.email } : null,
    mail: updateMail(
      desk.settings,
      { id: 0, subject: input.subject.trim(), text: input.text },
      sample?.email ?? desk.settings.owner,
      { name: sample?.name ?? '', footer: updateFooter(sample ?? null, desk.settings, unsubscribeUrl) },
      unsubscribeUrl,
    ),
  }
}

/**
 * "Send a test to me": the mail as a subscriber gets it, to the owner's own mailbox (the first
 * NOTIFY_EMAIL) at once, its unsubscribe link one that changes nothing. Counted with the replies.
 */
export async function sendTest(
  context: Context,
  input: { subject: string; text: string },
): Promise<{ ok: true; to: string } | Refusal> {
  const ready = updatesDesk(context)
  if (!ready.ok) return ready
  const problem = updateError(input.subject, input.text)
  if (problem) return refuse(400, problem)
  const taken = context.limits.replies.take('owner')
  if (!taken.ok) {
    return {
      ok: false,
      status: 429,
      error: `That is as many mails as can be sent in a minute. Wait ${taken.retryAfterSeconds} seconds, then try again.`,
      retryAfterSeconds: taken.retryAfterSeconds,
    }
  }
  const { settings } = ready.desk
  const unsubscribeUrl = `${settings.siteUrl}/updates/unsubscribe?token=${testToken}`
  const mail = updateMail(
    settings,
    { id: 0, subject: `[Test] ${input.subject.trim()}`, text: input.text },
    settings.owner,
    { name: '', footer: updateFooter('test', settings, unsubscribeUrl) },
    unsubscribeUrl,
  )
  try {
    await ready.desk.sendNow(mail)
    return { ok: true, to: settings.owner }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return { ok: false, status: 409, error: `The test did not go out: ${reason.slice(0, 300)}` }
  }
}

/** The one door every update goes through, from the page's form and the API alike. */
export async function sendUpdate(
  context: Context,
  input: { subject: string; text: string; audience: Audience; requestKey?: string },
  who: TeamMember,
) {
  const ready = updatesDesk(context)
  if (!ready.ok) return ready
  return ready.desk.updates.send({ ...input, by: who.id })
}

/** At most 50 names, each once; none when left out. */
const names = z._default(
  z.pipe(
    z.array(z.string()).check(z.maxLength(50)),
    z.transform((chosen) => [...new Set(chosen)]),
  ),
  [],
)

/** An audience as a JSON body or a query string names it: lists of products and intents. */
export const audienceSchema = z.object({ products: names, intents: names }) satisfies z.ZodMiniType<Audience>

/** An update as the API takes it: its subject and text, and whom it goes to. */
export const updateSchema = z.object({ subject: z.string(), text: z.string(), products: names, intents: names })
