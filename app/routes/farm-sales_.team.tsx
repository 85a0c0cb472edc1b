import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { isSubmissionId } from '#app/leads/lead'
import { shortDate } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { invitationDays } from '#app/team/team.server'
import { refuse } from '#app/http/refusal.server'

export const meta: MetaFunction = () => [{ title: 'The team' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { who, cannot } = await requirePermission(request, context, 'team:change', {
    as: 'page',
    to: 'change the team',
    showCannot: true,
  })
  return json(
    {
      people: cannot ? [] : context.team.people(),
      me: who.id,
      cannot,
      invitationDays,
      // Without PUBLIC_URL an invitation's link starts with the address this page was opened at.
      linksFrom: context.settings.config.push.siteUrl ? null : new URL(request.url).origin,
    },
    { headers: ownerDataHeaders },
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'team:change', { as: 'page', to: 'change the team' })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['intent', 'id', 'name', 'email', 'role'])
  const refused = (status: number, error: string, extra: { field?: string; id?: number } = {}) =>
    json(
      { problem: { error, ...extra, name: fields?.name ?? '', email: fields?.email ?? '' }, invited: null },
      { status },
    )
  if (!fields) return refused(400, notText)
  const address = context.clientAddress
  const link = (token: string) => `${context.settings.config.push.siteUrl ?? new URL(request.url).origin}/join/${token}`
  if (fields.intent === 'invite') {
    const invited = await context.team.invite(fields, pass.who, address, link)
    if (!invited.ok) return refused(invited.status, invited.error, invited.field ? { field: invited.field } : {})
    return json({
      problem: null,
      invited: {
        name: invited.person.name,
        link: link(invited.token),
        until: invited.expiresAt,
        mailed: invited.mailed ? invited.person.email : null,
      },
    })
  }
  if (!isSubmissionId(fields.id)) return refused(400, 'That person is not on the team.')
  const id = Number(fields.id)
  if (fields.intent === 'invite-again') {
    const again = await context.team.inviteAgain(id, pass.who, address, link)
    if (!again.ok) return refused(again.status, again.error, { id })
    return json({
      problem: null,
      invited: { name: again.name, link: link(again.token), until: again.expiresAt, mailed: again.mailed },
    })
  }
  const done =
    fields.intent === 'role'
      ? await context.team.changeRole(id, fields.role, pass.who, address)
      : fields.intent === 'remove'
        ? await context.team.remove(id, pass.who, address)
        : fields.intent === 'sign-out-everywhere'
          ? await context.team.signOutEverywhere(id, pass.who, address)
          : refuse(400, 'That change is not one this page knows.')
  if (!done.ok) return refused(done.status, done.error, { id })
  // Whoever changed their own role or removed themselves is signed out with the rest of their sessions.
  return redirect(id === pass.who.id ? '/sign-in' : '/farm-sales/team', 303)
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const buttonStyle =
  'rounded-full px-3 py-1 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'

export default function TeamPage() {
  const { people, me, cannot, invitationDays: days, linksFrom } = useLoaderData<typeof loader>()
  const zone = useFarmClock()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const problem = answer?.problem ?? null
  const inviteProblem = problem && !('id' in problem) ? problem : null
  if (cannot) {
    return (
      <OwnerPage title="The team">
        <CannotNote>{cannot}</CannotNote>
      </OwnerPage>
    )
  }
  return (
    <OwnerPage title="The team">
      <p className="mt-3 text-stone-700">
        Everyone who works the inbox, each with their own sign-in. An <strong>owner</strong> does everything; a{' '}
        <strong>helper</strong> reads the inbox, replies, marks leads, uses the saved replies and is told of new leads,
        but never exports, backs up, deletes, forgets, sends updates, sets up mail or changes the team.
      </p>
      {answer?.invited ? (
        <div role="status" className="mt-6 rounded-2xl bg-green-50 px-5 py-4 text-green-950 ring-1 ring-green-200">
          <p className="font-semibold">
            Send {answer.invited.name} this link to join (it works once, until {shortDate(answer.invited.until, zone)}):
          </p>
          <p className="mt-2 break-all">
            <code data-testid="invitation-link">{answer.invited.link}</code>
          </p>
          {answer.invited.mailed ? (
            <p className="mt-2 text-sm">It is mailed to {answer.invited.mailed} too.</p>
          ) : (
            <p className="mt-2 text-sm">Mail is not set up, so it is not mailed: send it yourself.</p>
          )}
        </div>
      ) : null}
      <ul className="mt-6 space-y-3">
        {people.map((person) => {
          const personProblem = problem && 'id' in problem && problem.id === person.id ? problem.error : null
          return (
            <li
              key={person.id}
              className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
              data-testid="person"
            >
              <p className="font-semibold text-stone-900">
                {person.name}
                {person.id === me ? ' (you)' : ''}
              </p>
              <p className="text-sm text-stone-700">
                {person.email ?? 'No address yet (signs in with the owner password)'} ·{' '}
                {person.role === 'owner' ? 'Owner' : 'Helper'} ·{' '}
                {person.joinedAt
                  ? `joined ${shortDate(person.joinedAt, zone)}, ${person.passkeys} ${person.passkeys === 1 ? 'passkey' : 'passkeys'}, ${person.phones} ${person.phones === 1 ? 'phone' : 'phones'}`
                  : 'invited, not joined yet'}
              </p>
              <div className="mt-3 flex flex-wrap items-end gap-2">
                <Form method="post" className="flex items-end gap-2">
                  <input type="hidden" name="id" value={person.id} />
                  <label className="text-sm text-stone-800">
                    <span className="mb-1 block font-semibold">
                      Role<span className="sr-only"> of {person.name}</span>
                    </span>
                    <select
                      name="role"
                      defaultValue={person.role}
                      className="rounded-lg border border-stone-300 bg-stone-50 px-2 py-1"
                    >
                      <option value="owner">Owner</option>
                      <option value="helper">Helper</option>
                    </select>
                  </label>
                  <button type="submit" name="intent" value="role" disabled={busy} className={buttonStyle}>
                    Change role<span className="sr-only"> for {person.name}</span>
                  </button>
                </Form>
                <Form method="post" className="flex flex-wrap gap-2">
                  <input type="hidden" name="id" value={person.id} />
                  {person.joinedAt ? (
                    <button
                      type="submit"
                      name="intent"
                      value="sign-out-everywhere"
                      disabled={busy}
                      className={buttonStyle}
                    >
                      Sign out everywhere<span className="sr-only"> for {person.name}</span>
                    </button>
                  ) : (
                    <button type="submit" name="intent" value="invite-again" disabled={busy} className={buttonStyle}>
                      New invitation link<span className="sr-only"> for {person.name}</span>
                    </button>
                  )}
                  <button type="submit" name="intent" value="remove" disabled={busy} className={buttonStyle}>
                    Remove from the team<span className="sr-only"> for {person.name}</span>
                  </button>
                </Form>
              </div>
              {personProblem ? (
                <p role="alert" className="mt-2 text-sm font-medium text-red-800">
                  Not changed ({person.name}): {personProblem}
                </p>
              ) : null}
            </li>
          )
        })}
      </ul>
      <h2 className="mt-10 font-serif text-2xl font-bold text-green-900">Add someone</h2>
      {linksFrom ? (
        <p
          data-testid="links-from"
          className="mt-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          {`Invitation links start with ${linksFrom}, the address this page is open at. If the person you invite cannot reach it from where they are, set the site’s public address in the `}
          <a href="/farm-sales/settings#farm" className="font-semibold underline">
            settings
          </a>{' '}
          first.
        </p>
      ) : null}
      {/* A fresh, empty form once someone is added: the next person starts from blank fields. */}
      <Form
        method="post"
        key={answer?.invited?.link ?? 'invite'}
        className="mt-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
      >
        <input type="hidden" name="intent" value="invite" />
        <label htmlFor="name" className="mb-1.5 block text-sm font-semibold text-stone-800">
          Name
        </label>
        <input
          id="name"
          name="name"
          defaultValue={inviteProblem?.name}
          aria-invalid={inviteProblem?.field === 'name' ? true : undefined}
          aria-describedby={inviteProblem ? 'invite-problem' : undefined}
          className={fieldStyle}
        />
        <label htmlFor="email" className="mt-3 mb-1.5 block text-sm font-semibold text-stone-800">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          defaultValue={inviteProblem?.email}
          aria-invalid={inviteProblem?.field === 'email' ? true : undefined}
          aria-describedby={inviteProblem ? 'invite-problem' : undefined}
          className={fieldStyle}
        />
        <label htmlFor="role" className="mt-3 mb-1.5 block text-sm font-semibold text-stone-800">
          Role
        </label>
        <select id="role" name="role" defaultValue="helper" className={fieldStyle}>
          <option value="helper">Helper</option>
          <option value="owner">Owner</option>
        </select>
        {inviteProblem ? (
          <p id="invite-problem" role="alert" className="mt-2 text-sm font-medium text-red-800">
            Not added: {inviteProblem.error}
          </p>
        ) : null}
        <button type="submit" disabled={busy} className={`mt-4 ${buttonStyle}`}>
          Add and make an invitation link
        </button>
        <p className="mt-2 text-sm text-stone-600">
          The link lets them set their own password, once, within {days} days.
        </p>
      </Form>
    </OwnerPage>
  )
}
