import type { Batch, Verdict } from '#app/delivery/sender.server'
import { inboxPath, leadPushMessage, type PushMessage } from './push-message'
import type { PushItem } from './push-round.server'
import { push, type PushSettings } from './push-service.server'

/** Carries one push to a phone: one lead's, or 'N new leads' for a burst. */
export async function pushToPhone({ item }: Batch<PushItem>, current: PushSettings): Promise<Verdict> {
  const { to, leads, burst } = item
  if (item.off) return { skipped: 'Their phone’s notifications are off' }
  if (item.notYet) return { notYet: item.notYet }
  const first = leads[0]!
  const message: PushMessage = burst
    ? { type: 'NEW_SUBMISSIONS', from: first.lead.id, count: leads.length, url: `${current.siteUrl ?? ''}${inboxPath}` }
    : leadPushMessage(first.lead, current.siteUrl ?? null, first.answer)
  const outcome = await push(to, message, {
    urgent: leads.some(({ lead }) => lead.analysis?.urgency.level === 'high'),
    // A burst has its own topic: an earlier burst still waiting on the push service is not replaced by this one.
    topic: burst ? `leads-from-${first.lead.id}` : `lead-${first.lead.id}`,
    settings: current,
  })
  if (outcome.sent) return { sent: true, sentIn: burst ? `burst-${first.lead.id}` : null }
  if (outcome.gone) return { refused: outcome.why, gone: true }
  return outcome.retry ? { receiverDown: outcome.why } : { refused: outcome.why }
}
