import { Form } from '@remix-run/react'
import { BrowserTimeZone } from '#app/clock/browser-time-zone'

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-4 py-3 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

/**
 * The form that makes someone's sign-in: the set-up of the first owner (name and address too) and
 * an invitation taken (the address is the one invited, shown, for the browser to keep with the password).
 */
export function NewPasswordForm({
  title,
  says,
  email,
  askName,
  problem,
  busy,
  submit,
}: {
  title: string
  says: string
  /** The address they will sign in with, when it is known already. */
  email: string | null
  askName: boolean
  problem: { error: string; field?: string; name?: string; email?: string } | null
  busy: boolean
  submit: string
}) {
  const described = (field: string) =>
    problem && (problem.field ?? 'password') === field
      ? { 'aria-invalid': true as const, 'aria-describedby': 'new-password-problem' }
      : {}
  return (
    <main className="mx-auto max-w-md px-4 py-20 sm:px-6">
      <Form method="post" className="rounded-3xl bg-white p-8 shadow-xl shadow-green-900/10 ring-1 ring-stone-200">
        <BrowserTimeZone />
        <h1 className="font-serif text-3xl font-bold text-green-900">{title}</h1>
        <p className="mt-2 text-stone-700">{says}</p>
        {askName ? (
          <>
            <label htmlFor="name" className="mt-6 mb-1.5 block text-sm font-semibold text-stone-800">
              Your name
            </label>
            <input
              id="name"
              name="name"
              autoComplete="name"
              defaultValue={problem?.name}
              className={fieldStyle}
              {...described('name')}
            />
          </>
        ) : null}
        <label htmlFor="email" className="mt-5 mb-1.5 block text-sm font-semibold text-stone-800">
          Email
        </label>
        {email === null ? (
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            defaultValue={problem?.email}
            className={fieldStyle}
            {...described('email')}
          />
        ) : (
          <input id="email" type="email" autoComplete="username" value={email} readOnly className={fieldStyle} />
        )}
        <label htmlFor="password" className="mt-5 mb-1.5 block text-sm font-semibold text-stone-800">
          A password, 12 characters or more
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          className={fieldStyle}
          {...described('password')}
        />
        <p className="mt-1 text-sm text-stone-600">A few words you will remember make a good one.</p>
        {problem ? (
          <p id="new-password-problem" role="alert" className="mt-2 text-sm font-medium text-red-700">
            {problem.error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={busy}
          className="mt-6 w-full rounded-xl bg-green-800 px-6 py-3 font-semibold text-white shadow hover:bg-green-900 disabled:opacity-70"
        >
          {submit}
        </button>
      </Form>
    </main>
  )
}

/** A link that no longer works (used, old, or never made): what happened, and where to go. */
export function GoneLink({ title, error }: { title: string; error: string }) {
  return (
    <main className="mx-auto max-w-md px-4 py-20 sm:px-6">
      <div className="rounded-3xl bg-white p-8 shadow-xl shadow-green-900/10 ring-1 ring-stone-200">
        <h1 className="font-serif text-3xl font-bold text-green-900">{title}</h1>
        <p role="alert" className="mt-3 text-stone-800">
          {error}
        </p>
        <a href="/sign-in" className="mt-6 inline-block font-semibold text-green-800 underline">
          Sign in
        </a>
      </div>
    </main>
  )
}
