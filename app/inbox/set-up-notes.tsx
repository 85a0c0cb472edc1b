import { Link } from '@remix-run/react'

export interface SetUp {
  /** Whether the settings page is open to this owner (OWNER_PASSWORD set). */
  settings: boolean
  mail: boolean
  phone: boolean
  updates: boolean
}

const steps = [
  {
    key: 'mail',
    title: 'Set up mail',
    says: 'You are mailed about each lead, and you answer it from its card.',
    to: '/farm-sales/settings#mail',
  },
  {
    key: 'phone',
    title: 'Be told on your phone',
    says: 'Open this inbox on your phone and turn on its notifications.',
    to: '/farm-sales/settings#notifications',
  },
  {
    key: 'updates',
    title: 'Offer updates',
    says: 'Visitors who say yes get your news and offers by mail.',
    to: '/farm-sales/settings#updates',
  },
] as const

/**
 * The one note of what is not set up yet, instead of one on every card: until mail is set, the
 * three steps that make the site useful, each ticked when done; after, one line naming what is
 * left, linking to its settings. An open inbox gets the one reason it cannot answer.
 */
export function SetUpNotes({ setUp, cannotReply }: { setUp: SetUp; cannotReply: string | null }) {
  if (!setUp.settings) {
    return cannotReply ? <p className="mt-1 text-sm text-stone-600">{cannotReply}</p> : null
  }
  if (!setUp.mail) {
    return (
      <section
        aria-labelledby="first-steps"
        className="mt-3 rounded-2xl bg-amber-50 px-4 py-3 text-stone-800 ring-1 ring-amber-200 sm:mt-5 sm:px-5 sm:py-4"
      >
        <h2 id="first-steps" className="font-semibold text-amber-950">
          Three steps make this site useful
        </h2>
        {/* On a phone, one row of steps without their words, so the first lead stays in the first screen. */}
        <ol className="mt-2 flex flex-wrap gap-x-4 gap-y-1.5 sm:block sm:space-y-2">
          {steps.map((step, index) => {
            const done = setUp[step.key]
            return (
              <li key={step.key} className="flex items-center gap-2 sm:items-start sm:gap-3">
                <span
                  aria-hidden="true"
                  className={`grid size-6 shrink-0 place-items-center rounded-full text-sm font-bold sm:mt-0.5 ${done ? 'bg-green-800 text-white' : 'bg-white text-amber-950 ring-1 ring-amber-300'}`}
                >
                  {done ? '✓' : index + 1}
                </span>
                <span>
                  <Link to={step.to} className="font-semibold text-green-800 underline">
                    {step.title}
                  </Link>
                  <span className="sr-only">{done ? ' (done)' : ' (not done yet)'}</span>
                  <span className="hidden text-sm text-stone-700 sm:block">{step.says}</span>
                </span>
              </li>
            )
          })}
        </ol>
      </section>
    )
  }
  const left = steps.filter((step) => !setUp[step.key])
  if (left.length === 0) return null
  return (
    <p role="note" className="mt-3 rounded-xl bg-amber-50 px-4 py-2 text-sm text-stone-800 ring-1 ring-amber-200">
      Not set up yet:{' '}
      {left.map((step, index) => (
        <span key={step.key}>
          {index > 0 ? ', ' : ''}
          <Link to={step.to} className="font-semibold text-green-800 underline">
            {step.title.toLowerCase()}
          </Link>
        </span>
      ))}
      .
    </p>
  )
}
