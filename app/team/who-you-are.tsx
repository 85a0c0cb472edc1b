import { Form, Link } from '@remix-run/react'

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

/**
 * What the owner OWNER_PASSWORD made is asked first: their name and address (their sign-in from
 * then on). On the inbox until given, and on its own page when refused.
 */
export function WhoYouAre({
  then,
  name,
  problem,
  busy,
  later,
}: {
  then: string
  name: string
  problem: { error: string; field: string | null } | null
  busy: boolean
  /** Where 'Later' goes, on the page of its own; the inbox's card has none. */
  later: string | null
}) {
  const described = (field: string) =>
    problem && (problem.field ?? 'name') === field ? { 'aria-invalid': true, 'aria-describedby': 'who-problem' } : {}
  return (
    <Form
      method="post"
      action="/farm-sales/welcome"
      aria-labelledby="who-you-are"
      className="mt-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-green-200"
    >
      <input type="hidden" name="then" value={then} />
      <h2 id="who-you-are" className="font-serif text-xl font-bold text-green-900">
        Welcome: who are you?
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        Your name shows on what you do here; your address is where the site mails you, and how you sign in from now on.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <label className="text-sm font-semibold text-stone-800">
          Your name
          <input
            name="name"
            autoComplete="name"
            defaultValue={name}
            className={`mt-1 ${fieldStyle}`}
            {...described('name')}
          />
        </label>
        <label className="text-sm font-semibold text-stone-800">
          Your email
          <input
            name="email"
            type="email"
            autoComplete="email"
            className={`mt-1 ${fieldStyle}`}
            {...described('email')}
          />
        </label>
      </div>
      {problem ? (
        <p id="who-problem" role="alert" className="mt-2 text-sm font-medium text-red-700">
          Not saved: {problem.error}
        </p>
      ) : null}
      <div className="mt-3 flex items-center gap-4">
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60"
        >
          Save
        </button>
        {later ? (
          <Link to={later} className="text-sm font-semibold text-green-800 underline">
            Later
          </Link>
        ) : null}
      </div>
    </Form>
  )
}
