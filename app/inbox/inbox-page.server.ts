import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { requirePermission } from '#app/owner/require-permission.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { forgotWords, recordDeed } from '#app/team/deeds.server'
import type { Answering, ReplyProblem } from '#app/replies/conversation'
import { newFormKey, sendReply, settleFailedReply } from '#app/replies/reply-requests.server'
import { answerOrderForm, orderingFor } from '#app/orders/order-requests.server'
import { isSubmissionId, type TagCount } from '#app/leads/lead'
import { inboxPageSizes, readInboxQuery } from './inbox-query'
import { submissionChangeFromForm } from './submission-change'

export const headers = pageHeaders

/**
 * What a card's forms send without JavaScript: mark it handled or new, or not spam; reply to
 * it; try a failed reply again or dismiss it; draft, confirm or decline its order; delete it,
 * or forget its sender; and the spam folder's 'Empty'. A refused reply comes back to its card, text kept.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'inbox:work', { as: 'page' })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['id', 'intent', 'text', 'savedReply', 'key', 'replyId'])
  if (!fields) return json({ error: notText }, { status: 400 })
  const { id, intent, text } = fields
  if (intent === 'order-draft' || intent === 'order-confirm' || intent === 'order-decline') {
    if (!isSubmissionId(id)) return json({ error: 'That submission is not one the inbox knows.' }, { status: 400 })
    return answerOrderForm(request, context, form, { id: Number(id), intent })
  }
  const backToCard = () => redirect(`/farm-sales${new URL(request.url).search}#submission-${id}`, 303)
  const backToView = () => redirect(`/farm-sales${new URL(request.url).search}`, 303)
  if (intent === 'delete' || intent === 'forget' || intent === 'empty-spam') {
    const to = { delete: 'delete submissions', forget: 'forget a person', 'empty-spam': 'empty the spam folder' }[
      intent
    ]
    await requirePermission(request, context, 'data:erase', { as: 'page', to })
    if (intent === 'empty-spam') {
      const deleted = await context.inbox.emptySpam()
      await recordDeed(context, pass, 'empty-spam', `Emptied the spam folder: ${deleted} deleted`)
      return backToView()
    }
    const gone = () => json({ error: 'That submission is no longer here.' }, { status: 404 })
    if (!isSubmissionId(id)) return gone()
    if (intent === 'delete') {
      if (!(await context.inbox.remove(Number(id)))) return gone()
      await recordDeed(context, pass, 'delete', `Deleted submission ${id}`)
      return backToView()
    }
    const address = context.inbox.addressOf(Number(id))
    const forgotten = address !== null ? await context.people.forget(address, pass.who.id) : null
    if (!forgotten) return gone()
    await recordDeed(context, pass, 'forget', forgotWords(forgotten), address!)
    return backToView()
  }
  if (intent === 'reply' || intent === 'retry-reply' || intent === 'dismiss-reply') {
    const refused = (status: number, error: string) =>
      json({ replyProblem: { id: Number(id), error, text } satisfies ReplyProblem }, { status })
    if (!isSubmissionId(id)) return refused(400, 'That submission is not one the inbox knows.')
    const { cannot } = await requirePermission(request, context, 'replies:send', {
      as: 'page',
      to: 'reply to leads',
      showCannot: true,
    })
    if (cannot) return refused(403, cannot)
    if (intent !== 'reply' && !isSubmissionId(fields.replyId)) {
      return refused(400, 'That reply is not one the inbox knows.')
    }
    const done =
      intent === 'reply'
        ? await sendReply(
            context,
            {
              submissionId: Number(id),
              text,
              ...(isSubmissionId(fields.savedReply) ? { savedReplyId: Number(fields.savedReply) } : {}),
              ...(fields.key ? { requestKey: fields.key } : {}),
            },
            pass.who,
          )
        : await settleFailedReply(
            context,
            {
              submissionId: Number(id),
              replyId: Number(fields.replyId),
              action: intent === 'retry-reply' ? 'retry' : 'dismiss',
            },
            pass.who,
          )
    return done.ok ? backToCard() : refused(done.status, done.error)
  }
  const change = submissionChangeFromForm(form)
  if (!isSubmissionId(id) || !change) {
    return json({ error: 'That change is not one the inbox knows.' }, { status: 400 })
  }
  if (!(await context.inbox.update(Number(id), change, pass.who.id))) {
    return json({ error: 'That submission is no longer here.' }, { status: 404 })
  }
  // Back to the same view: a fresh page showing the change.
  return backToView()
}

const noCounts: TagCount[] = []

export async function loader({ request, context }: LoaderFunctionArgs) {
  const pass = await requirePermission(request, context, 'inbox:read', { as: 'page' })
  const owner = pass.who.role === 'owner'
  // What is not set up is set up in the settings, an owner's: a helper is told whom to ask.
  const forThem = (cannot: string | null, what: string) =>
    cannot && !owner ? `${what}: an owner sets it up in the settings.` : cannot
  // The phone's notifications: the key to subscribe with for the signed-in person, else why not.
  const phone =
    context.push && !context.cannotPush && pass.session !== null
      ? { publicKey: context.push.publicKey, cannot: null }
      : {
          publicKey: null,
          cannot: forThem(
            context.cannotPush,
            'To be notified on this phone, the site needs mail or the phone’s contact',
          ),
        }
  const cannotReply = forThem(context.cannotReply, 'To answer from here, the site needs mail')
  // What is not set up yet, said once for the page: the settings are a signed-in owner's.
  const setUp = { settings: context.owner.required && owner, ...context.setup() }
  // Downloading everything, deleting and forgetting: only for a signed-in owner.
  const keeping = { can: context.owner.required && pass.session !== null && owner }
  // What the page shows around the list, however the list went.
  const around = {
    phone,
    keeping,
    setUp,
    cannotReply,
    // Until the site is claimed, the note above every owner page says why so much is not here yet.
    claimed: context.owner.required,
    // The owner OWNER_PASSWORD made is asked their name and address at the top until they give them.
    askWhoYouAre: pass.who.id !== null && context.team.withoutAddress(pass.who.id),
  }
  const query = readInboxQuery(new URL(request.url).searchParams, inboxPageSizes)
  if (!query.ok) {
    return json(
      { badQuery: query.error, loadFailed: false, page: null, counts: noCounts, ...around },
      { status: 400, headers: ownerDataHeaders },
    )
  }
  try {
    const { submissions, next } = context.inbox.list(query.page)
    const readAt = context.inbox.readAt()
    const answering: Answering = {
      cannotReply,
      savedReplies: context.cannotReply ? [] : context.replies.saved.list(),
      farmName: context.farm.name,
      formKey: newFormKey(),
    }
    const ordering = await orderingFor(
      request,
      context,
      submissions.map((submission) => submission.id),
    )
    return json(
      {
        badQuery: null,
        loadFailed: false,
        page: { view: query.page, submissions, next, readAt, answering, ordering },
        counts: context.inbox.tagCounts(),
        ...around,
      },
      { headers: ownerDataHeaders },
    )
  } catch (error) {
    context.log.error({ err: error }, 'could not list the submissions')
    return json(
      { badQuery: null, loadFailed: true, page: null, counts: noCounts, ...around },
      { headers: ownerDataHeaders },
    )
  }
}
