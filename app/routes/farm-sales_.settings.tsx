import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { notText } from '#app/http/form-text.server'
import { mailboxLinkWords } from '#app/mail-back/mailbox.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { fieldOf, sectionOf, sections } from '#app/settings/fields'
import {
  applyChange,
  changeOfForm,
  sendTestMail,
  sendTestPost,
  testBucket,
  testMailbox,
} from '#app/settings/settings-requests.server'
import { shortTime, shortTimeAndZone } from '#app/clock/dates'
import type { Offsite } from '#app/lifecycle/data-lifecycle.server'
import { SettingsSection, type SectionAnswer } from '#app/settings/settings-section'

export const meta: MetaFunction = () => [{ title: 'Settings' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'settings:change', {
    as: 'page',
    to: 'change the farm’s settings',
    showCannot: true,
  })
  if (cannot)
    return json({ cannot, states: null, acknowledgement: '', mailboxSays: '', bucketSays: '', bucketNeedsKey: false })
  const bucket = context.offsite.report()
  return json(
    {
      cannot: null,
      states: context.settings.view(),
      acknowledgement: context.replies.acknowledgement.text(),
      mailboxSays: mailboxLinkWords(context.mailbox.link(), context.farm.timeZone),
      bucketSays: bucketWords(bucket, context.offsite.hasKey(), context.farm.timeZone),
      bucketNeedsKey: bucket.on && !context.offsite.hasKey(),
    },
    { headers: ownerDataHeaders },
  )
}

/** How the copies to the bucket go, in the owner's words; times on the farm's clock (`zone`), a backup's name in UTC. */
function bucketWords({ on, newest, failure }: ReturnType<Offsite['report']>, hasKey: boolean, zone: string): string {
  if (!on) return 'No bucket is set: the backups stay on this machine only.'
  if (!hasKey) return 'Nothing is copied to the bucket until its key is made: make it here, and keep it safe.'
  if (failure) {
    return `The last copy to the bucket failed at ${shortTimeAndZone(failure.at, zone)}: ${failure.words}; it will be tried again at ${shortTime(failure.nextAt, zone)}.`
  }
  if (!newest) return 'No copy has reached the bucket yet: the next backup is copied there, sealed.'
  return `The bucket holds the backups up to ${newest.name} (named in UTC), sealed; checked at ${shortTimeAndZone(newest.at, zone)}.`
}

/** The sections whose settings can be tried before they are saved: the button each shows, and what it posts. */
const testButtons: Partial<Record<string, { intent: string; label: string }>> = {
  mail: { intent: 'test-mail', label: 'Send a test mail' },
  mailbox: { intent: 'test-mailbox', label: 'Test the mailbox' },
  backups: { intent: 'test-bucket', label: 'Test the bucket' },
  webhook: { intent: 'test-post', label: 'Send a test post' },
}
/** What each section's test button tries, with the values on the form, unsaved. */
const testRuns: Partial<Record<string, typeof sendTestMail>> = {
  mail: sendTestMail,
  mailbox: testMailbox,
  backups: testBucket,
  webhook: sendTestPost,
}

const answered = (answer: SectionAnswer, status = 400) => json(answer, { status, headers: ownerDataHeaders })

/** What was typed in a section's form, to show again when it is refused (never a secret). */
function typedIn(form: FormData, sectionId: string): Record<string, string> {
  const typed: Record<string, string> = {}
  for (const field of sectionOf(sectionId)?.fields ?? []) {
    const value = form.get(field.key)
    // A password typed into an address (refused there) is not shown back either.
    if (field.kind !== 'secret' && typeof value === 'string')
      typed[field.key] = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1@')
  }
  return typed
}

/**
 * One section's form: saved whole or not at all (then 303 back to it, saying so), a secret
 * removed, or the mail server or the webhook tried with the values on the form, unsaved.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'settings:change', {
    as: 'page',
    to: 'change the farm’s settings',
  })
  const form = await request.formData().catch(() => null)
  const intent = form?.get('intent')
  const section = form?.get('section')
  if (!form || typeof intent !== 'string' || typeof section !== 'string' || !sectionOf(section)) {
    return answered({
      section: '',
      problems: { form: 'That change is not one this page knows.' },
      typed: {},
      tested: null,
    })
  }
  const refused = (problems: Record<string, string>) =>
    answered({ section, problems, typed: typedIn(form, section), tested: null })
  const test = testButtons[section]?.intent === intent ? testRuns[section] : undefined
  if (test) {
    const tested = await test(form, context, pass)
    if (!tested.ok) return refused({ [tested.field]: tested.error })
    return answered(
      { section, problems: {}, typed: typedIn(form, section), tested: { ok: true, said: tested.said } },
      200,
    )
  }
  if (intent === 'make-bucket-key' && section === 'backups') {
    const keyOnce = context.settings.config.backups.bucket ? context.offsite.makeKeyOnce() : null
    if (!keyOnce) return refused({ form: 'There is a key already, or no bucket: nothing was made.' })
    return answered({ section, problems: {}, typed: {}, tested: null, keyOnce }, 200)
  }
  const removing = intent.startsWith('remove:') ? intent.slice('remove:'.length) : null
  if (removing !== null && fieldOf(removing)?.kind !== 'secret')
    return refused({ form: 'That change is not one this page knows.' })
  const change = removing
    ? { [removing]: null }
    : intent === 'save'
      ? changeOfForm(form, section, context.settings.view())
      : null
  if (!change) return refused({ form: intent === 'save' ? notText : 'That change is not one this page knows.' })
  const done = await applyChange(change, context)
  if (!done.ok) {
    return refused(done.refusal.kind === 'fields' ? done.refusal.fields : { form: done.refusal.error })
  }
  // The bucket's key is made when the bucket is first set, and shown in this answer only.
  const keyOnce = context.settings.config.backups.bucket ? context.offsite.makeKeyOnce() : null
  if (keyOnce) return answered({ section, problems: {}, typed: {}, tested: null, keyOnce }, 200)
  return redirect(`/farm-sales/settings?saved=${section}#${section}`, 303)
}

export default function Settings() {
  const { cannot, states, acknowledgement, mailboxSays, bucketSays, bucketNeedsKey } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>() ?? null
  const saved = new URLSearchParams(useLocation().search).get('saved')
  const busy = useNavigation().state === 'submitting'
  return (
    <OwnerPage title="Settings">
      {cannot || !states ? (
        <CannotNote>{cannot}</CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            Changes are used from the next mail, push or page, without a restart. A value the site’s environment sets
            wins, and is shown locked with the variable’s name.
          </p>
          <nav aria-label="Sections" className="mt-5 flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {sections.map((section) => (
              <a key={section.id} href={`#${section.id}`} className="font-semibold text-green-800 underline">
                {section.title}
              </a>
            ))}
          </nav>
          {sections.map((section) => (
            <SettingsSection
              key={section.id}
              section={section}
              states={states}
              answer={answer?.section === section.id ? answer : null}
              saved={saved === section.id && !answer}
              busy={busy}
              tests={testButtons[section.id]}
            >
              {section.id === 'mail' ? (
                <p className="text-sm text-stone-700">
                  For mail that lands in inboxes, publish the records on{' '}
                  <Link to="/farm-sales/mail" className="font-semibold text-green-800 underline">
                    Mail that lands
                  </Link>
                  .
                </p>
              ) : null}
              {section.id === 'mailbox' ? (
                <p data-testid="mailbox-link" className="text-sm text-stone-700">
                  {mailboxSays}
                </p>
              ) : null}
              {section.id === 'backups' ? (
                <div>
                  <p data-testid="bucket-state" className="text-sm text-stone-700">
                    {bucketSays}
                  </p>
                  {bucketNeedsKey ? (
                    <button
                      type="submit"
                      name="intent"
                      value="make-bucket-key"
                      className="mt-2 rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50"
                    >
                      Make the bucket’s key
                    </button>
                  ) : null}
                </div>
              ) : null}
              {section.id === 'visitors' ? (
                <div>
                  <p className="text-sm font-semibold text-stone-800">Its text</p>
                  <figure aria-label="The acknowledgement’s text">
                    <pre className="mt-1.5 rounded-xl bg-stone-50 px-3 py-2 font-sans text-sm whitespace-pre-wrap text-stone-800 ring-1 ring-stone-200">
                      {acknowledgement}
                    </pre>
                  </figure>
                  <Link
                    to="/farm-sales/saved-replies#acknowledgement"
                    className="mt-1.5 inline-block text-sm font-semibold text-green-800 underline"
                  >
                    Change its text
                  </Link>
                </div>
              ) : null}
            </SettingsSection>
          ))}
        </>
      )}
    </OwnerPage>
  )
}
