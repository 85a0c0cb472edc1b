import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { newFormKey } from '#app/replies/reply-requests.server'
import { isSubmissionId } from '#app/leads/lead'
import { Composer, type Review } from '#app/updates/composer'
import { SubscriberList } from '#app/updates/subscriber-list'
import { updateLimits } from '#app/updates/update'
import { UpdateReports } from '#app/updates/update-reports'
import { ReadyNewsList } from '#app/this-week/ready-news'
import { ReturnedMails } from '#app/updates/returned-mails'
import { mailboxLinkWords } from '#app/mail-back/mailbox.server'
import { previewMail, sendTest, sendUpdate, updatesDesk } from '#app/updates/update-requests.server'
import { subscriberLimits } from '#app/updates/subscribers.server'
import { refuse } from '#app/http/refusal.server'
import { zoneWords } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'

export const meta: MetaFunction = () => [{ title: 'Updates and offers' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePermission(request, context, 'updates:send', { as: 'page', to: 'send updates', showCannot: true })
  const ready = updatesDesk(context)
  if (!ready.ok) return json({ cannotSend: ready.error, desk: null }, { headers: ownerDataHeaders })
  const { subscribers, updates } = ready.desk
  const url = new URL(request.url)
  const search = (url.searchParams.get('q') ?? '').slice(0, subscriberLimits.search)
  const queued = Number(url.searchParams.get('queued'))
  return json(
    {
      cannotSend: null,
      desk: {
        counts: subscribers.counts(),
        search,
        subscribers: subscribers.list(search),
        reports: updates.reports(),
        rates: updates.returnRates(),
        returned: ready.desk.returned.latest(),
        readyNews: context.week.tellMe.proposals(),
        linkSays: mailboxLinkWords(context.mailbox.link(), context.farm.timeZone),
        sending: updates.sending(),
        choices: updates.choices,
        justQueued: Number.isInteger(queued) && queued > 0 ? updates.report(queued) : null,
        formKey: newFormKey(),
        owner: ready.desk.settings.owner,
        limits: { ...updateLimits, note: subscriberLimits.note, onPage: subscriberLimits.onPage },
      },
    },
    { headers: ownerDataHeaders },
  )
}

/** Which part of the page an answer is for. */
type FormName = 'composer' | 'subscribers'

/** What the composer sent, as the page gives it back after a refusal or a review. */
export interface Draft {
  subject: string
  text: string
  products: string[]
  intents: string[]
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'updates:send', {
    as: 'page',
    to: 'send updates',
    showCannot: true,
  })
  const sentForm = await request.formData().catch(() => new FormData())
  const fields = formTexts(sentForm, ['intent', 'subject', 'text', 'requestKey', 'email', 'name', 'note', 'id'])
  const lists = [...sentForm.getAll('product'), ...sentForm.getAll('intent-of')]
  if (!fields || lists.some((value) => typeof value !== 'string')) {
    return json(
      { form: 'composer' as FormName, problem: notText, draft: null, review: null, tested: null, added: null },
      { status: 400 },
    )
  }
  const form: FormName =
    fields.intent === 'add' || fields.intent === 'remove' || fields.intent === 'mail-again' ? 'subscribers' : 'composer'
  const draft: Draft = {
    subject: fields.subject,
    text: fields.text,
    products: sentForm.getAll('product') as string[],
    intents: sentForm.getAll('intent-of') as string[],
  }
  const answer = (status: number, said: { problem?: string; review?: Review; tested?: string; added?: string }) =>
    json(
      {
        form,
        problem: said.problem ?? null,
        draft,
        review: said.review ?? null,
        tested: said.tested ?? null,
        added: said.added ?? null,
      },
      { status },
    )
  const ready = updatesDesk(context)
  if (!ready.ok) return answer(ready.status, { problem: ready.error })
  const { desk } = ready
  const audience = { products: draft.products.slice(0, 50), intents: draft.intents.slice(0, 50) }
  switch (fields.intent) {
    case 'review': {
      const sent = { subject: draft.subject, text: draft.text, audience }
      const ready = desk.updates.check(sent)
      if (!ready.ok) return answer(ready.status, { problem: ready.error })
      const preview = previewMail(desk, sent)
      return answer(200, {
        review: {
          recipients: ready.recipients,
          to: preview.to,
          subject: String(preview.mail.subject),
          text: String(preview.mail.text),
          html: String(preview.mail.html),
        },
      })
    }
    case 'send': {
      const sent = await sendUpdate(
        context,
        {
          subject: draft.subject,
          text: draft.text,
          audience,
          ...(fields.requestKey ? { requestKey: fields.requestKey } : {}),
        },
        who,
      )
      if (!sent.ok) return answer(sent.status, { problem: sent.error })
      return redirect(`/farm-sales/updates?queued=${sent.update.id}`, 303)
    }
    case 'test': {
      const tested = await sendTest(context, { subject: draft.subject, text: draft.text })
      if (!tested.ok) return answer(tested.status, { problem: tested.error })
      return answer(200, { tested: tested.to })
    }
    case 'add': {
      const added = await desk.subscribers.add({ email: fields.email, name: fields.name, note: fields.note })
      if (!added.ok) return answer(added.status, { problem: added.error })
      return answer(200, { added: added.subscriber.email })
    }
    case 'remove': {
      const removed = isSubmissionId(fields.id)
        ? await desk.subscribers.remove(Number(fields.id))
        : refuse(404, 'There is no such subscriber.')
      if (!removed.ok) return answer(removed.status, { problem: removed.error })
      return redirect('/farm-sales/updates', 303)
    }
    case 'mail-again': {
      const undone = isSubmissionId(fields.id) && (await desk.returned.undo(Number(fields.id)))
      if (!undone) return answer(404, { problem: 'That bounce or complaint stops no one now.' })
      return redirect('/farm-sales/updates', 303)
    }
    default:
      return answer(400, { problem: 'That change is not one this page knows.' })
  }
}

/** While mails go out, the reports are read again this often. */
const reportEveryMs = 2_000

export default function Updates() {
  const { cannotSend, desk } = useLoaderData<typeof loader>()
  const zone = useFarmClock()
  const answer = useActionData<typeof action>()
  const revalidator = useRevalidator()
  const sending = desk?.sending ?? false
  // A fresh composer (empty, with a new request key) only once an update went out; a search or a
  // removal keeps what is being written.
  const queuedId = desk?.justQueued?.id
  const [composerKey, setComposerKey] = useState(queuedId ?? 0)
  useEffect(() => {
    if (queuedId) setComposerKey(queuedId)
  }, [queuedId])
  useEffect(() => {
    if (!sending) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, reportEveryMs)
    return () => clearInterval(timer)
  }, [sending, revalidator])

  return (
    <OwnerPage title="Updates and offers" wide>
      {cannotSend || !desk ? (
        <CannotNote>{cannotSend}</CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            Mail your news to the people who said yes to it: {desk.counts.subscribed.toLocaleString('en-GB')}{' '}
            {desk.counts.subscribed === 1 ? 'subscriber' : 'subscribers'}. Each mail says why they get it and lets them
            unsubscribe in one click.{` Times here are ${zoneWords(zone)}.`}
          </p>
          {desk.justQueued ? (
            <p role="status" className="mt-6 rounded-2xl bg-green-50 px-5 py-4 text-green-950 ring-1 ring-green-200">
              “{desk.justQueued.subject}” is on its way to {desk.justQueued.recipients.toLocaleString('en-GB')}{' '}
              {desk.justQueued.recipients === 1 ? 'subscriber' : 'subscribers'}.
            </p>
          ) : null}
          <ReadyNewsList news={desk.readyNews} />
          <Composer
            key={composerKey}
            choices={desk.choices}
            formKey={desk.formKey}
            owner={desk.owner}
            limits={desk.limits}
            draft={answer?.form === 'composer' ? answer.draft : null}
            review={answer?.review ?? null}
            problem={answer?.form === 'composer' ? answer.problem : null}
            tested={answer?.tested ?? null}
          />
          <UpdateReports reports={desk.reports} sending={sending} />
          <ReturnedMails linkSays={desk.linkSays} rates={desk.rates} returned={desk.returned} />
          <SubscriberList
            counts={desk.counts}
            search={desk.search}
            subscribers={desk.subscribers}
            noteLimit={desk.limits.note}
            onPage={desk.limits.onPage}
            added={answer?.added ?? null}
            problem={answer?.form === 'subscribers' ? answer.problem : null}
          />
        </>
      )}
    </OwnerPage>
  )
}
