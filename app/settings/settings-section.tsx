import { Form } from '@remix-run/react'
import { groupTitles, type Field, type FieldState, type Section } from './fields'
import type { Half } from './mail-providers'

/** One half of the mailbox's test, as the page says it: worked, failed (pointing at a field), or not set up. */
export interface TestLine {
  /** The mailbox's halves; none for the one thing another section tries. */
  half?: Half
  ok: boolean | null
  said: string
  field?: string
  link?: { href: string; words: string } | null
}

/** What the page answered for one section: each refused field's words, what was typed, or a test's outcome. */
export interface SectionAnswer {
  section: string
  problems: Record<string, string>
  /** What was typed, so a refused form shows it again (never a secret). */
  typed: Record<string, string>
  tested: { ok: boolean; lines: TestLine[] } | null
  /** After a test nothing was to be saved unless `pending`: its refusals say 'Not saved yet' only then. */
  after?: 'save' | 'test'
  pending?: boolean
  /** A word about the form, such as the provider's servers filled in. */
  note?: string
  /** The bucket's key, made by this very answer: the one time it is shown. */
  keyOnce?: string | null
}

/** The words before a refusal: Save's, or a test's when something on the form was not saved yet. */
const notSavedWords = (answer: SectionAnswer | null) =>
  answer?.after === 'test' ? (answer.pending ? 'Not saved yet: ' : '') : 'Not saved: '

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none disabled:bg-stone-100 disabled:text-stone-600'
const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const saveStyle =
  'rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60'

function FieldInput({
  field,
  state,
  typed,
  problem,
  failedTest,
}: {
  field: Field
  state: FieldState
  typed?: string
  problem?: string
  /** The test's line that says this field failed. */
  failedTest?: string
}) {
  const id = `setting-${field.key}`
  const locked = state.lockedBy !== null
  const described = [problem ? `${id}-problem` : null, failedTest ?? null, field.hint && !locked ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ')
  const shared = {
    id,
    name: field.key,
    disabled: locked,
    'aria-invalid': problem || failedTest ? true : undefined,
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

const halfWords = { sending: 'Sending', reading: 'Reading' } as const

/** A test's outcome: each half of the mailbox (or the one thing tried), in words, and whether it is saved. */
function Tested({
  sectionId,
  tested,
  pending,
}: {
  sectionId: string
  tested: NonNullable<SectionAnswer['tested']>
  pending: boolean
}) {
  return (
    <div
      role={tested.ok ? 'status' : 'alert'}
      className={`space-y-1.5 rounded-xl p-3 text-sm font-medium ring-1 ${tested.ok ? 'bg-green-50 ring-green-200' : 'bg-red-50 ring-red-200'}`}
    >
      <ul className="space-y-1.5">
        {tested.lines.map((line, index) => (
          <li
            key={line.half ?? index}
            id={`${sectionId}-test-${line.half ?? index}`}
            className={line.ok === false ? 'text-red-800' : line.ok ? 'text-green-800' : 'text-stone-700'}
          >
            {line.half ? <strong>{halfWords[line.half]}: </strong> : null}
            {line.said}
            {line.link ? (
              <>
                {' '}
                <a href={line.link.href} target="_blank" rel="noreferrer" className="font-semibold underline">
                  {line.link.words}
                </a>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {pending ? (
        <p className="text-stone-800">{tested.ok ? 'Not saved yet: Save keeps these settings.' : 'Not saved yet.'}</p>
      ) : null}
    </div>
  )
}

/** One field: its label (within its group's name), its box, where it is set, its hint and its refusal. */
function FieldRow({
  field,
  state,
  answer,
  problem,
  failedTest,
  busy,
}: {
  field: Field
  state: FieldState
  answer: SectionAnswer | null
  problem?: string
  failedTest?: string
  busy: boolean
}) {
  const id = `setting-${field.key}`
  // In a group, the group's name is part of the field's: 'Sending Port', not one of two 'Port's.
  const inGroup = field.group ? <span className="sr-only">{groupTitles[field.group]} </span> : null
  return (
    <div>
      {/* A secret's box is folded away (or absent, when the environment sets it): a label may only name a control shown. */}
      {field.kind === 'secret' ? (
        <p id={`${id}-label`} className="mb-1.5 text-sm font-semibold text-stone-800">
          {inGroup}
          {field.label}
        </p>
      ) : (
        <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-stone-800">
          {inGroup}
          {field.label}
        </label>
      )}
      <FieldInput
        field={field}
        state={state}
        typed={answer?.typed[field.key]}
        problem={problem}
        failedTest={failedTest}
      />
      {state.lockedBy ? (
        <p className="mt-1 text-xs text-stone-600">
          Set where the site runs (<span className="break-all">{state.lockedBy}</span>)
        </p>
      ) : null}
      {field.hint && !state.lockedBy ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-stone-600">
          {field.hint}
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
          {notSavedWords(answer)}
          {problem}
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
}

/** The section's fields, those of one group under its heading; a field that follows another (sameAs) while that one is shown is not shown twice. */
function groupsOf(fields: Field[], stateOf: (key: string) => FieldState) {
  const groups: Array<{ group: string | null; fields: Field[] }> = []
  for (const field of fields) {
    if (field.sameAs && !stateOf(field.sameAs).lockedBy) continue
    const last = groups.at(-1)
    if (last && last.group === (field.group ?? null)) last.fields.push(field)
    else groups.push({ group: field.group ?? null, fields: [field] })
  }
  return groups
}

/**
 * One section of the settings: a form of its own, posted to the page with JavaScript on or off.
 * A field the environment sets is locked, saying so in small print; a refused value's words
 * stand beside its field, and a test's words below, pointing at the fields that failed.
 */
export function SettingsSection({
  section,
  states,
  level = 2,
  answer,
  saved,
  busy,
  tests,
  lead,
  children,
}: {
  section: Section
  states: FieldState[]
  /** Its heading's level: 3 within Advanced. */
  level?: 2 | 3
  answer: SectionAnswer | null
  saved: boolean
  busy: boolean
  tests?: { intent: string; label: string }
  /** What comes before the fields (the mail provider's choice). */
  lead?: React.ReactNode
  children?: React.ReactNode
}) {
  const stateOf = (key: string) => states.find((state) => state.key === key)!
  const shownKey = (key: string) => {
    const field = section.fields.find((each) => each.key === key)
    return field?.sameAs && !stateOf(field.sameAs).lockedBy ? field.sameAs : key
  }
  // Each refusal beside the field shown for it; those of no field below the form.
  const problems: Record<string, string> = {}
  const unnamed: Array<[string, string]> = []
  for (const [key, words] of Object.entries(answer?.problems ?? {})) {
    if (section.fields.some((field) => field.key === key)) problems[shownKey(key)] ??= words
    else unnamed.push([key, words])
  }
  const failedTests = Object.fromEntries(
    (answer?.tested?.lines ?? [])
      .filter((line) => line.ok === false && line.field)
      .map((line) => [shownKey(line.field!), `${section.id}-test-${line.half}`]),
  )
  const anyOpen = section.fields.some((field) => stateOf(field.key).lockedBy === null)
  const Heading = level === 2 ? 'h2' : 'h3'
  const row = (field: Field) => (
    <FieldRow
      key={field.key}
      field={field}
      state={stateOf(field.key)}
      answer={answer}
      problem={problems[field.key]}
      failedTest={failedTests[field.key]}
      busy={busy}
    />
  )
  return (
    <section id={section.id} aria-labelledby={`${section.id}-title`} className="mt-10 scroll-mt-20">
      <Heading
        id={`${section.id}-title`}
        className={`font-serif font-bold text-green-900 ${level === 2 ? 'text-2xl' : 'text-xl'}`}
      >
        {section.title}
      </Heading>
      <p className="mt-1 text-stone-700">{section.says}</p>
      <Form
        method="post"
        action={`/farm-sales/settings#${section.id}`}
        className="mt-4 space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
        preventScrollReset
      >
        <input type="hidden" name="section" value={section.id} />
        {lead}
        {answer?.note ? (
          <p role="status" className="text-sm font-medium text-green-800">
            {answer.note}
          </p>
        ) : null}
        {groupsOf(section.fields, stateOf).map(({ group, fields }) =>
          group ? (
            // A port and its security share a row where there is room.
            <fieldset key={group} className="grid gap-4 rounded-xl p-4 ring-1 ring-stone-200 sm:grid-cols-2">
              <legend className="px-1 text-sm font-bold text-green-900">{groupTitles[group]}</legend>
              {fields.map((field) => (
                <div
                  key={field.key}
                  className={field.kind === 'whole-number' || field.kind === 'choice' ? '' : 'sm:col-span-2'}
                >
                  {row(field)}
                </div>
              ))}
            </fieldset>
          ) : (
            fields.map(row)
          ),
        )}
        {children}
        {unnamed.map(([key, words]) => (
          <p key={key} role="alert" className="text-sm font-medium text-red-800">
            {notSavedWords(answer)}
            {words}
          </p>
        ))}
        {answer?.tested ? (
          <Tested sectionId={section.id} tested={answer.tested} pending={Boolean(answer.pending)} />
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
              {section.saveWords ?? `Save ${section.title.toLowerCase()}`}
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
