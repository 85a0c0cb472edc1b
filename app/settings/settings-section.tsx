import { Form } from '@remix-run/react'
import type { Field, FieldState, Section } from './fields'

/** What the page answered for one section: each refused field's words, what was typed, or a test's outcome. */
export interface SectionAnswer {
  section: string
  problems: Record<string, string>
  /** What was typed, so a refused form shows it again (never a secret). */
  typed: Record<string, string>
  tested: { ok: boolean; said: string } | null
  /** The bucket's key, made by this very answer: the one time it is shown. */
  keyOnce?: string | null
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none disabled:bg-stone-100 disabled:text-stone-600'
const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const saveStyle =
  'rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60'

const sourceWords = { default: 'default', 'settings page': 'set here', environment: 'environment' } as const

function FieldInput({
  field,
  state,
  typed,
  problem,
}: {
  field: Field
  state: FieldState
  typed?: string
  problem?: string
}) {
  const id = `setting-${field.key}`
  const locked = state.lockedBy !== null
  const described = [problem ? `${id}-problem` : null, field.hint && !locked ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ')
  const shared = {
    id,
    name: field.key,
    disabled: locked,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': described || undefined,
    className: fieldStyle,
  }
  const value = typed ?? state.value ?? ''
  if (field.kind === 'secret') {
    return (
      <div>
        <p id={`${id}-state`} className="text-sm text-stone-800">
          {state.set ? 'Set' : 'Not set'}
        </p>
        {locked ? null : (
          <details className="mt-1" open={Boolean(problem) || !state.set}>
            <summary className="cursor-pointer text-sm font-semibold text-green-800 underline">
              {state.set ? 'Change' : 'Set it'}
            </summary>
            <input
              {...shared}
              aria-labelledby={`${id}-label`}
              type="password"
              autoComplete="new-password"
              className={`${fieldStyle} mt-2`}
            />
          </details>
        )}
      </div>
    )
  }
  if (field.kind === 'long-text') return <textarea {...shared} rows={4} defaultValue={value} key={value} />
  if (field.kind === 'yes-no' || field.kind === 'choice') {
    const choices = field.choices ?? [
      { value: 'true', label: 'On' },
      { value: 'false', label: 'Off' },
    ]
    return (
      <select {...shared} defaultValue={value} key={value}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    )
  }
  return (
    <input
      {...shared}
      type="text"
      inputMode={field.kind === 'whole-number' ? 'numeric' : undefined}
      defaultValue={value}
      key={value}
      autoComplete="off"
      spellCheck={false}
    />
  )
}

/** The bucket's key, the one time it is shown: what it is for and what losing it means, in plain words. */
function KeyShownOnce({ keyText }: { keyText: string }) {
  return (
    <div role="status" className="rounded-xl bg-amber-50 p-4 text-sm text-stone-900 ring-1 ring-amber-300">
      <p className="font-semibold">Saved. Here is the key the bucket’s copies are sealed with:</p>
      <p className="mt-2">
        <code data-testid="bucket-key" className="font-mono text-base break-all select-all">
          {keyText}
        </code>
      </p>
      <p className="mt-2">
        Keep it somewhere safe, away from this machine (a password manager, or on paper). Without it the bucket’s copies
        cannot be read by anyone, you included: restoring from the bucket asks for it. It is shown this once and never
        again.
      </p>
    </div>
  )
}

/**
 * One section of the settings: a form of its own, posted to the page with JavaScript on or off.
 * Each field says where its value comes from; one the environment sets is locked, with the
 * variable's name; a refused value's words stand beside its field.
 */
export function SettingsSection({
  section,
  states,
  answer,
  saved,
  busy,
  tests,
  children,
}: {
  section: Section
  states: FieldState[]
  answer: SectionAnswer | null
  saved: boolean
  busy: boolean
  tests?: { intent: string; label: string }
  children?: React.ReactNode
}) {
  const stateOf = (key: string) => states.find((state) => state.key === key)!
  const unnamed = answer
    ? Object.entries(answer.problems).filter(([key]) => !section.fields.some((field) => field.key === key))
    : []
  const anyOpen = section.fields.some((field) => stateOf(field.key).lockedBy === null)
  return (
    <section id={section.id} aria-labelledby={`${section.id}-title`} className="mt-10 scroll-mt-20">
      <h2 id={`${section.id}-title`} className="font-serif text-2xl font-bold text-green-900">
        {section.title}
      </h2>
      <p className="mt-1 text-stone-700">{section.says}</p>
      <Form
        method="post"
        action={`/farm-sales/settings#${section.id}`}
        className="mt-4 space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
        preventScrollReset
      >
        <input type="hidden" name="section" value={section.id} />
        {section.fields.map((field) => {
          const state = stateOf(field.key)
          const problem = answer?.problems[field.key]
          const id = `setting-${field.key}`
          return (
            <div key={field.key}>
              <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-x-3">
                {/* A secret's box is folded away (or absent, when the environment sets it): a label may only name a control shown. */}
                {field.kind === 'secret' ? (
                  <p id={`${id}-label`} className="text-sm font-semibold text-stone-800">
                    {field.label}
                  </p>
                ) : (
                  <label htmlFor={id} className="text-sm font-semibold text-stone-800">
                    {field.label}
                  </label>
                )}
                <span className="text-xs text-stone-600">
                  <code>{field.key}</code> · {sourceWords[state.source]}
                </span>
              </div>
              <FieldInput field={field} state={state} typed={answer?.typed[field.key]} problem={problem} />
              {state.lockedBy ? (
                <p className="mt-1 text-sm text-stone-600">
                  Set by the site’s environment (<code>{state.lockedBy}</code>): change it there.
                </p>
              ) : null}
              {field.hint && !state.lockedBy ? (
                <p id={`${id}-hint`} className="mt-1 text-sm text-stone-600">
                  {field.hint}
                </p>
              ) : null}
              {problem ? (
                <p id={`${id}-problem`} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
                  Not saved: {problem}
                </p>
              ) : null}
              {field.kind === 'secret' && state.set && !state.lockedBy ? (
                // Its own form's button, so Enter in a field of this one saves and never removes.
                <button
                  form={`remove-${field.key}`}
                  type="submit"
                  name="intent"
                  value={`remove:${field.key}`}
                  className={`${buttonStyle} mt-2`}
                  disabled={busy}
                >
                  Remove
                </button>
              ) : null}
            </div>
          )
        })}
        {children}
        {unnamed.map(([key, words]) => (
          <p key={key} role="alert" className="text-sm font-medium text-red-800">
            Not saved: {words}
          </p>
        ))}
        {answer?.tested ? (
          <p role="status" className={`text-sm font-medium ${answer.tested.ok ? 'text-green-800' : 'text-red-800'}`}>
            {answer.tested.said}
          </p>
        ) : null}
        {answer?.keyOnce ? <KeyShownOnce keyText={answer.keyOnce} /> : null}
        {saved ? (
          <p role="status" className="text-sm font-medium text-green-800">
            Saved. It is used from the next mail, push or page.
          </p>
        ) : null}
        {anyOpen ? (
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="save" className={saveStyle} disabled={busy}>
              Save {section.title.toLowerCase()}
            </button>
            {tests ? (
              <button type="submit" name="intent" value={tests.intent} className={buttonStyle} disabled={busy}>
                {tests.label}
              </button>
            ) : null}
          </div>
        ) : null}
      </Form>
      {section.fields
        .filter((field) => field.kind === 'secret' && stateOf(field.key).set && !stateOf(field.key).lockedBy)
        .map((field) => (
          <Form
            key={field.key}
            id={`remove-${field.key}`}
            method="post"
            action={`/farm-sales/settings#${section.id}`}
            hidden
          >
            <input type="hidden" name="section" value={section.id} />
          </Form>
        ))}
    </section>
  )
}
