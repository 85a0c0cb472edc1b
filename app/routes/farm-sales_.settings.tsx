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
  removalOf,
  sendTestPost,
  testBucket,
  testMailbox,
} from '#app/settings/settings-requests.server'
import { shortTime, shortTimeAndZone } from '#app/clock/dates'
import { fieldsOf, providersWith } from '#app/settings/mail-providers'
import type { OwnerPass } from '#app/owner/owner-access.server'
import type { Offsite } from '#app/lifecycle/data-lifecycle.server'
import { SettingsSection, type SectionAnswer } from '#app/settings/settings-section'
import { ProviderChoiceForm, ProviderPicker } from '#app/settings/provider-picker'
import { useEffect } from 'react'

export const meta: MetaFunction = () => [{ title: 'Settings' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'settings:change', {
    as: 'page',
    to: 'change the farm’s settings',
    showCannot: true,
  })
  if (cannot)
    return json({
      cannot,
      states: null,
      acknowledgement: '',
      mailboxSays: '',
      bucketSays: '',
      bucketNeedsKey: false,
      testProvider: null,
    })
  const bucket = context.offsite.report()
  return json(
    {
      cannot: null,
      testProvider: context.settings.config.testMailProvider,
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
  mail: { intent: 'test-mail', label: 'Test sending and reading' },
  backups: { intent: 'test-bucket', label: 'Test the bucket' },
  webhook: { intent: 'test-post', label: 'Send a test post' },
}
/** What each other section's test button tries, with the values on the form, unsaved. */
const testRuns: Partial<Record<string, typeof sendTestPost>> = {
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
  const provider = form.get('provider')
  if (sectionId === 'mail' && typeof provider === 'string') typed.provider = provider
  return typed
}

/** A test of a section's values, unsaved: each half's words for the mailbox, else the one test's. */
async function tried(form: FormData, section: string, context: ActionFunctionArgs['context'], pass: OwnerPass) {
  if (section === 'mail')
    return testMailbox(form, context, pass, providersWith(context.settings.config.testMailProvider))
  const tested = await testRuns[section]!(form, context, pass)
  return tested.ok ? { ok: true as const, lines: [{ ok: true, said: tested.said }] } : tested
}

/** 'Use these settings': the chosen provider's servers filled into the form, nothing saved (JavaScript fills them as it is chosen). */
function providerFilled(form: FormData, context: ActionFunctionArgs['context']) {
  const chosen = form.get('provider')
  const provider = providersWith(context.settings.config.testMailProvider).find((each) => each.id === chosen)
  const typed = typedIn(form, 'mail')
  if (!provider)
    return answered({ section: 'mail', problems: { form: 'Choose your provider first.' }, typed, tested: null })
  const note = provider.sending
    ? `${provider.name}’s servers are filled in below: type your address and password, then test or save.`
    : 'Type your provider’s servers below, then test or save.'
  const locked = new Set(context.settings.view().flatMap((state) => (state.lockedBy ? [state.key] : [])))
  const filled = Object.entries(fieldsOf(provider)).filter(([key]) => !locked.has(key))
  return answered(
    { section: 'mail', problems: {}, typed: { ...typed, ...Object.fromEntries(filled) }, tested: null, note },
    200,
  )
}

/**
 * One section's form: saved whole or not at all (then 303 back to it, saying so), a secret
 * removed, a provider's servers filled in, or the section's servers tried with the values on the
 * form, unsaved: then each failure says 'Not saved yet' only when something was to be saved.
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
  const refused = (problems: Record<string, string>, after: SectionAnswer['after'] = 'save', pending = true) =>
    answered({ section, problems, typed: typedIn(form, section), tested: null, after, pending })
  if (intent === 'use-provider' && section === 'mail') return providerFilled(form, context)
  if (testButtons[section]?.intent === intent) {
    const pending = Object.keys(changeOfForm(form, section, context.settings.view()) ?? {}).length > 0
    const tested = await tried(form, section, context, pass)
    if (!tested.ok) return refused({ [tested.field]: tested.error }, 'test', pending)
    const ok = tested.lines.every((line) => line.ok !== false)
    return answered(
      {
        section,
        problems: {},
        typed: typedIn(form, section),
        tested: { ok, lines: tested.lines },
        after: 'test',
        pending,
      },
      ok ? 200 : 400,
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
  const removal = removing ? removalOf(removing, context.settings.view()) : null
  if (removal && 'problem' in removal) return refused({ [removing!]: String(removal.problem) })
  const change = removal ? removal : intent === 'save' ? changeOfForm(form, section, context.settings.view()) : null
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

/** The words and links that stand beside some sections' fields. */
function SectionNotes({
  id,
  mailboxSays,
  bucketSays,
  bucketNeedsKey,
  acknowledgement,
}: {
  id: string
  mailboxSays: string
  bucketSays: string
  bucketNeedsKey: boolean
  acknowledgement: string
}) {
  if (id === 'mail')
    return (
      <div className="space-y-1.5 text-sm text-stone-700">
        <p data-testid="mailbox-link">{mailboxSays}</p>
        <p>
          For mail that lands in inboxes, publish the records on{' '}
          <Link to="/farm-sales/mail" className="font-semibold text-green-800 underline">
            Mail that lands
          </Link>
          .
        </p>
      </div>
    )
  if (id === 'notifications')
    return (
      <p className="text-sm text-stone-700">
        To be told on your phone too, open the inbox on your phone and turn on its notifications there.
      </p>
    )
  if (id === 'backups')
    return (
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
    )
  if (id === 'updates')
    return (
      <div>
        <p className="text-sm font-semibold text-stone-800">The thank-you’s text</p>
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
    )
  return null
}

/** Opens Advanced when the address names a section folded in it (a link, or the browser's back). */
function useAdvancedOpensForItsSections() {
  useEffect(() => {
    const open = () => {
      const target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null
      const advanced = target?.closest('details')
      if (advanced && !advanced.open) {
        advanced.open = true
        target!.scrollIntoView()
      }
    }
    open()
    window.addEventListener('hashchange', open)
    return () => window.removeEventListener('hashchange', open)
  }, [])
}

export default function Settings() {
  const { cannot, states, testProvider, ...notes } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>() ?? null
  const saved = new URLSearchParams(useLocation().search).get('saved')
  const busy = useNavigation().state === 'submitting'
  useAdvancedOpensForItsSections()
  const providers = providersWith(testProvider)
  const sectionFor = (section: (typeof sections)[number], level: 2 | 3) => (
    <SettingsSection
      key={section.id}
      section={section}
      states={states!}
      level={level}
      answer={answer?.section === section.id ? answer : null}
      saved={saved === section.id && !answer}
      busy={busy}
      tests={testButtons[section.id]}
      lead={
        section.id === 'mail' ? (
          <ProviderPicker
            providers={providers}
            states={states!}
            typed={answer?.section === 'mail' ? answer.typed : undefined}
          />
        ) : null
      }
    >
      <SectionNotes id={section.id} {...notes} />
    </SettingsSection>
  )
  const advancedOpen = [answer?.section, saved].some((id) => id && sectionOf(id)?.advanced)
  return (
    <OwnerPage title="Settings">
      {cannot || !states ? (
        <CannotNote>{cannot}</CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            Changes are used from the next mail, push or page, without a restart. A setting made where the site runs
            wins, and is shown locked here.
          </p>
          <nav aria-label="Sections" className="mt-5 flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {[
              ...sections.filter((section) => !section.advanced),
              { id: 'team', title: 'Team' },
              { id: 'advanced', title: 'Advanced' },
            ].map((section) => (
              <a key={section.id} href={`#${section.id}`} className="font-semibold text-green-800 underline">
                {section.title}
              </a>
            ))}
          </nav>
          {sections.filter((section) => !section.advanced).map((section) => sectionFor(section, 2))}
          {/* The provider's choice posts through a form of its own: forms do not nest. */}
          <ProviderChoiceForm />
          <section id="team" aria-labelledby="team-title" className="mt-10 scroll-mt-20">
            <h2 id="team-title" className="font-serif text-2xl font-bold text-green-900">
              Team
            </h2>
            <p className="mt-1 text-stone-700">
              Who else may sign in, and what each may do, is set on the{' '}
              <Link to="/farm-sales/team" className="font-semibold text-green-800 underline">
                Team page
              </Link>
              .
            </p>
          </section>
          <details id="advanced" open={advancedOpen} className="group mt-10 scroll-mt-20">
            <summary className="cursor-pointer">
              <h2 className="inline font-serif text-2xl font-bold text-green-900">Advanced</h2>
              <span className="mt-1 block text-stone-700">
                Seldom changed: the webhook, backups, how long things are kept, the digest’s window, signing, and the
                phone’s push contact.
              </span>
            </summary>
            {sections.filter((section) => section.advanced).map((section) => sectionFor(section, 3))}
          </details>
        </>
      )}
    </OwnerPage>
  )
}
