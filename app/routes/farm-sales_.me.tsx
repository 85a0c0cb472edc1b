import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { AddPasskey } from '#app/owner/add-passkey'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { cameOverHttps } from '#app/owner/request-security'
import { requirePermission } from '#app/owner/require-permission.server'
import { shortDate } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { NotifyChoices } from '#app/team/notify-choices'

export const meta: MetaFunction = () => [{ title: 'Your page' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { who, cannot } = await requirePermission(request, context, 'account:own', { as: 'page', showCannot: true })
  const mine = who.id === null ? null : context.team.mine(who.id)
  // Nothing is ticked that cannot work yet: without mail, the box says how mail is turned on.
  const mailOn = context.settings.config.notify !== null
  const pushOn = context.cannotPush === null
  return json({ mine, cannot, mailOn, pushOn, owner: who.role === 'owner' }, { headers: ownerDataHeaders })
}

type Section = 'mine' | 'password' | 'phones' | 'passkeys'

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'account:own', { as: 'page' })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['intent', 'name', 'email', 'mail', 'push', 'current', 'password', 'id'])
  // `field`: which of the section's fields it is about, marked invalid alone.
  const refused = (section: Section, status: number, error: string, field?: string) =>
    json({ problem: { section, error, field: field ?? null } }, { status })
  if (!fields) return refused('mine', 400, notText)
  // A person of the team passed (the open inbox is refused): they have an id.
  const me = pass.who.id!
  const done = () => redirect('/farm-sales/me', 303)
  switch (fields.intent) {
    case 'mine': {
      const changed = await context.team.changeMine(me, {
        name: fields.name,
        email: fields.email,
        mailNewLeads: fields.mail === 'on',
        pushNewLeads: fields.push === 'on',
      })
      return changed.ok ? done() : refused('mine', changed.status, changed.error, changed.field)
    }
    case 'password': {
      // The password they have first: a browser left signed in is not a way to take the account.
      const checked = await context.owner.checkOwnPassword(me, fields.current, context.clientAddress)
      if (checked !== 'right') {
        return refused(
          'password',
          checked === 'wrong' ? 400 : 429,
          checked === 'wrong' ? 'Your password now is not right.' : 'Too many wrong passwords. Wait a while.',
          'current',
        )
      }
      const problem = await context.owner.setPassword(me, fields.password, pass.session)
      return problem ? refused('password', 400, problem, 'password') : done()
    }
    case 'remove-phone':
      await context.team.removePhone(me, Number(fields.id))
      return done()
    case 'remove-passkey':
      await context.passkeys.remove({ id: me }, fields.id)
      return done()
    case 'sign-out-everywhere': {
      await context.team.signOutEverywhere(me, pass.who, context.clientAddress)
      const cleared = await context.owner.signOut(request.headers.get('Cookie'), { secure: cameOverHttps(request) })
      return redirect('/sign-in', { status: 303, headers: { 'Set-Cookie': cleared } })
    }
    default:
      return refused('mine', 400, 'That change is not one this page knows.')
  }
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
export const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const card = 'mt-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200'
const heading = 'mt-10 font-serif text-2xl font-bold text-green-900'

export default function MyPage() {
  const { mine, cannot, mailOn, pushOn, owner } = useLoaderData<typeof loader>()
  const zone = useFarmClock()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const problem = (section: Section) =>
    answer?.problem.section === section ? (
      <p id={`${section}-problem`} role="alert" className="mt-2 text-sm font-medium text-red-800">
        Not saved: {answer.problem.error}
      </p>
    ) : null
  const described = (section: Section, field: string) =>
    answer?.problem.section === section && (answer.problem.field ?? field) === field
      ? { 'aria-describedby': `${section}-problem`, 'aria-invalid': true }
      : {}
  if (!mine) {
    return (
      <OwnerPage title="Your page">
        <CannotNote>{cannot}</CannotNote>
      </OwnerPage>
    )
  }
  return (
    <OwnerPage title="Your page">
      <p className="mt-3 text-stone-700">
        {mine.name}, {mine.role === 'owner' ? 'an owner' : 'a helper'}
        {mine.email ? ` (${mine.email})` : ''}.{' '}
        {mine.role === 'owner' ? (
          <>
            <Link to="/farm-sales/team" className="font-semibold text-green-800 underline">
              The team
            </Link>{' '}
            ·{' '}
            <Link to="/farm-sales/activity" className="font-semibold text-green-800 underline">
              Activity
            </Link>
          </>
        ) : (
          'A helper reads the inbox, replies, marks leads and is told of new ones.'
        )}
      </p>

      <h2 className={heading}>You and your notifications</h2>
      <Form method="post" className={card}>
        <input type="hidden" name="intent" value="mine" />
        <label htmlFor="name" className="mb-1.5 block text-sm font-semibold text-stone-800">
          Your name, as the team and the cards show it
        </label>
        <input id="name" name="name" defaultValue={mine.name} className={fieldStyle} {...described('mine', 'name')} />
        <label htmlFor="my-email" className="mt-3 mb-1.5 block text-sm font-semibold text-stone-800">
          Your email, to sign in with and to be mailed at
        </label>
        <input
          id="my-email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={mine.email ?? ''}
          className={fieldStyle}
          {...described('mine', 'email')}
        />
        <NotifyChoices mine={mine} mailOn={mailOn} pushOn={pushOn} owner={owner} />
        {problem('mine')}
        <button type="submit" disabled={busy} className={`mt-4 ${buttonStyle}`}>
          Save
        </button>
      </Form>

      <h2 className={heading}>Your phones</h2>
      {mine.phoneList.length === 0 ? (
        <p className="mt-2 text-stone-700">None yet: open the inbox on your phone and tap ‘Notify me on this phone’.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {mine.phoneList.map((phone) => (
            <li key={phone.id} className="flex flex-wrap items-center gap-3 text-stone-800">
              <span>
                A phone added {shortDate(phone.addedAt, zone)}, pushed through {phone.endpointHost}
              </span>
              <Form method="post">
                <input type="hidden" name="id" value={phone.id} />
                <button type="submit" name="intent" value="remove-phone" disabled={busy} className={buttonStyle}>
                  Stop notifying it
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      <h2 className={heading}>Passkeys</h2>
      <p className="mt-2 text-stone-700">
        A passkey signs you in with your phone’s or computer’s lock (a fingerprint, a face, a PIN), with nothing to
        type: handy at the market stall.
      </p>
      {mine.passkeyList.length > 0 ? (
        <ul className="mt-3 space-y-2">
          {mine.passkeyList.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center gap-3 text-stone-800" data-testid="passkey">
              <span>
                Added {shortDate(key.addedAt, zone)}
                {key.lastUsedAt ? `, last used ${shortDate(key.lastUsedAt, zone)}` : ', not used yet'}
              </span>
              <Form method="post">
                <input type="hidden" name="id" value={key.id} />
                <button type="submit" name="intent" value="remove-passkey" disabled={busy} className={buttonStyle}>
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      <AddPasskey />

      <h2 className={heading}>Password</h2>
      <Form method="post" className={card}>
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="username" value={mine.email ?? ''} autoComplete="username" />
        <label htmlFor="current" className="mb-1.5 block text-sm font-semibold text-stone-800">
          Your password now
        </label>
        <input
          id="current"
          name="current"
          type="password"
          autoComplete="current-password"
          required
          className={fieldStyle}
          {...described('password', 'current')}
        />
        <label htmlFor="password" className="mt-3 mb-1.5 block text-sm font-semibold text-stone-800">
          A new password, 12 characters or more
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          className={fieldStyle}
          {...described('password', 'password')}
        />
        {problem('password')}
        <button type="submit" disabled={busy} className={`mt-4 ${buttonStyle}`}>
          Change my password
        </button>
        <p className="mt-2 text-sm text-stone-600">Your other browsers and phones are signed out when it changes.</p>
      </Form>

      <h2 className={heading}>Sign out everywhere</h2>
      <Form method="post" className={card}>
        <p className="text-stone-700">
          Ends every session of yours, on every browser and phone, this one too, and stops notifying your phones: for a
          lost phone, or a shared computer left signed in.
        </p>
        <button
          type="submit"
          name="intent"
          value="sign-out-everywhere"
          disabled={busy}
          className={`mt-3 ${buttonStyle}`}
        >
          Sign out everywhere
        </button>
      </Form>
    </OwnerPage>
  )
}
