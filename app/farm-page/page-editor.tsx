import { Form, Link } from '@remix-run/react'
import { longWeekdays, shortTime, zoneWords } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { storyLimits, wordLimits } from './page-limits'

/** What the editor says after a change, by the `done` the change sends it back with. */
export const doneWords = {
  saved: 'Draft saved. Visitors still see the published page: preview the draft, then publish it.',
  published: 'Published: visitors see the page as you wrote it.',
  restored: 'Restored: visitors see the page as it was published before. Restore again to undo.',
  discarded: 'Draft discarded.',
} as const
export type Done = keyof typeof doneWords

interface Changed {
  changedAt: number
  changedBy?: string | null
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const buttonStyle =
  'rounded-full px-4 py-2 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const mainButtonStyle =
  'rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60'
const boxStyle = 'mt-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200'

/** The editor of the home page's words: everything in one form, saved as a draft, previewed, published. */
export function PageEditor({
  values,
  problems,
  draft,
  published,
  previous,
  done,
  busy,
}: {
  values: Record<string, string>
  problems: Record<string, string>
  draft: Changed | null
  published: Changed | null
  previous: Changed | null
  done: Done | null
  busy: boolean
}) {
  const zone = useFarmClock()
  const when = (changed: Changed) =>
    `${shortTime(changed.changedAt, zone)}${changed.changedBy ? ` by ${changed.changedBy}` : ''}`
  const fieldProblems = Object.keys(problems).filter((name) => name !== 'form').length
  return (
    <>
      <div className="mt-3 space-y-1 text-stone-700" data-testid="page-versions">
        <p>
          {published
            ? `Visitors see the page published ${when(published)}.`
            : 'Visitors see the page as the site first came: nothing is published yet.'}
        </p>
        {draft ? (
          <p>{`You are editing a draft saved ${when(draft)}: it is not on the page until you publish it.`}</p>
        ) : null}
        <p className="text-sm">{`Times are ${zoneWords(zone)}.`}</p>
      </div>
      {done ? (
        <p role="status" className="mt-4 rounded-2xl bg-green-50 px-5 py-3 text-green-950 ring-1 ring-green-200">
          {doneWords[done]}
        </p>
      ) : null}
      {problems.form || fieldProblems > 0 ? (
        <p role="alert" className="mt-4 rounded-2xl bg-red-50 px-5 py-3 text-red-900 ring-1 ring-red-200">
          {problems.form ??
            `Not saved: ${fieldProblems === 1 ? 'one field needs' : `${fieldProblems} fields need`} a change, marked below.`}
        </p>
      ) : null}
      <Form
        method="post"
        className="mt-2"
        aria-label="The farm’s page"
        // A fresh form whenever what it holds changes (a restore, a publish), so its fields show it.
        key={JSON.stringify(values)}
      >
        <WelcomeFields values={values} problems={problems} />
        <StoryField values={values} problems={problems} />
        <HoursFields values={values} problems={problems} zone={zone} />
        <FindUsFields values={values} problems={problems} />
        <div className="sticky bottom-0 mt-6 flex flex-wrap gap-2 rounded-2xl bg-stone-50/95 py-3">
          <button type="submit" name="intent" value="save" disabled={busy} className={buttonStyle}>
            Save draft
          </button>
          <button type="submit" name="intent" value="preview" disabled={busy} className={buttonStyle}>
            Save and preview
          </button>
          <button type="submit" name="intent" value="publish" disabled={busy} className={mainButtonStyle}>
            Publish
          </button>
        </div>
      </Form>
      <div className="mt-6 flex flex-wrap gap-2">
        {draft ? (
          <>
            <Link to="/farm-sales/page/preview" className={buttonStyle}>
              Preview the draft
            </Link>
            <Form method="post">
              <button type="submit" name="intent" value="discard" disabled={busy} className={buttonStyle}>
                Discard the draft
              </button>
            </Form>
          </>
        ) : null}
        {previous ? (
          <Form method="post">
            <button type="submit" name="intent" value="restore" disabled={busy} className={buttonStyle}>
              {`Restore the version published before (${shortTime(previous.changedAt, zone)})`}
            </button>
          </Form>
        ) : null}
      </div>
    </>
  )
}

type Fields = { values: Record<string, string>; problems: Record<string, string> }

/** A labelled field, with its hint and its problem read with it. */
function Field({
  name,
  label,
  hint,
  values,
  problems,
  rows,
  maxLength,
  type = 'text',
}: Fields & { name: string; label: string; hint?: string; rows?: number; maxLength: number; type?: string }) {
  const problem = problems[name]
  const described = [hint ? `${name}-hint` : null, problem ? `${name}-problem` : null].filter(Boolean).join(' ')
  const common = {
    id: name,
    name,
    defaultValue: values[name] ?? '',
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': described || undefined,
    className: fieldStyle,
  }
  return (
    <div className="mt-4">
      <label htmlFor={name} className="mb-1.5 block text-sm font-semibold text-stone-800">
        {label}
      </label>
      {hint ? (
        <p id={`${name}-hint`} className="mb-1.5 text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      {rows ? <textarea rows={rows} {...common} /> : <input type={type} maxLength={maxLength} {...common} />}
      {problem ? <Problem id={`${name}-problem`}>{problem}</Problem> : null}
    </div>
  )
}

function Problem({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
      {children}
    </p>
  )
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section className={boxStyle} aria-labelledby={id}>
      <h2 id={id} className="font-serif text-2xl font-bold text-green-900">
        {title}
      </h2>
      {children}
    </section>
  )
}

function WelcomeFields(fields: Fields) {
  return (
    <Section title="Welcome and cards" id="welcome-section">
      <Field
        {...fields}
        name="welcome"
        label="Welcome line"
        hint="The farm’s name follows it: ‘Welcome to’ reads ‘Welcome to Bramble Farm’."
        maxLength={wordLimits.welcome}
      />
      <Field {...fields} name="intro" label="Intro" rows={3} maxLength={wordLimits.intro} />
      {[0, 1].map((card) => (
        <div key={card}>
          <Field
            {...fields}
            name={`card-${card}-title`}
            label={`Card ${card + 1}: title`}
            hint={card === 0 ? '{product} becomes the farm’s product, as the settings name it.' : undefined}
            maxLength={wordLimits.cardTitle}
          />
          <Field
            {...fields}
            name={`card-${card}-text`}
            label={`Card ${card + 1}: text`}
            rows={3}
            maxLength={wordLimits.cardText}
          />
        </div>
      ))}
    </Section>
  )
}

function StoryField(fields: Fields) {
  return (
    <Section title="The farm’s story" id="story-section">
      <Field
        {...fields}
        name="story"
        label="Story"
        hint={`Plain words; a blank line starts a new paragraph; a link is written [words](https://…). At most ${storyLimits.characters} characters. Empty: the page shows no story.`}
        rows={8}
        maxLength={storyLimits.characters}
      />
    </Section>
  )
}

function HoursFields({ zone, ...fields }: Fields & { zone: string }) {
  const { values, problems } = fields
  const filled = Array.from({ length: wordLimits.exceptions + 1 }, (_, row) => row).filter((row) =>
    ['from', 'to', 'opens', 'closes', 'note'].some((part) => values[`exception-${part}-${row}`]),
  )
  const rows = Math.min(
    (filled.at(-1) ?? -1) + 2,
    wordLimits.exceptions + (filled.includes(wordLimits.exceptions) ? 1 : 0),
  )
  return (
    <Section title="Opening hours" id="hours-section">
      <p className="mt-2 text-sm text-stone-600">
        {`On the farm’s clock (${zoneWords(zone)}). Leave both times empty for a day you are closed.`}
      </p>
      <div className="mt-3 space-y-2">
        {longWeekdays.map((name, day) => (
          <div key={name} role="group" aria-labelledby={`day-${day}`} className="flex flex-wrap items-center gap-2">
            <span id={`day-${day}`} className="w-full font-semibold text-stone-800 sm:w-28">
              {name}
            </span>
            <TimeInput name={`opens-${day}`} label={`${name} opens`} values={values} />
            <span aria-hidden="true">–</span>
            <TimeInput name={`closes-${day}`} label={`${name} closes`} values={values} />
            {problems[`hours-${day}`] ? (
              <Problem id={`hours-${day}-problem`}>{problems[`hours-${day}`]!}</Problem>
            ) : null}
          </div>
        ))}
      </div>
      <h3 className="mt-6 font-semibold text-stone-900">Days that differ</h3>
      <p className="mt-1 text-sm text-stone-600">
        Closed for a few days, or open on a special day: the first day, the last (if more than one), the hours (none:
        closed) and a note visitors read (‘strawberry day’). Save to get another empty row.
      </p>
      <ol className="mt-2 space-y-3">
        {Array.from({ length: rows }, (_, row) => (
          <li
            key={row}
            className="rounded-xl bg-stone-50 p-3 ring-1 ring-stone-200"
            aria-label={`Day that differs ${row + 1}`}
          >
            <div className="flex flex-wrap items-end gap-2">
              <DateInput name={`exception-from-${row}`} label="First day" values={values} />
              <DateInput name={`exception-to-${row}`} label="Last day" values={values} />
              <TimeInput name={`exception-opens-${row}`} label="Opens" values={values} visible />
              <TimeInput name={`exception-closes-${row}`} label="Closes" values={values} visible />
              <label className="grow text-sm font-semibold text-stone-800">
                Note
                <input
                  name={`exception-note-${row}`}
                  defaultValue={values[`exception-note-${row}`] ?? ''}
                  maxLength={wordLimits.note}
                  className={`mt-1 ${fieldStyle}`}
                />
              </label>
            </div>
            {problems[`exception-${row}`] ? (
              <Problem id={`exception-${row}-problem`}>{problems[`exception-${row}`]!}</Problem>
            ) : null}
          </li>
        ))}
      </ol>
    </Section>
  )
}

function TimeInput({
  name,
  label,
  values,
  visible = false,
}: {
  name: string
  label: string
  values: Record<string, string>
  visible?: boolean
}) {
  return (
    <label className="text-sm font-semibold text-stone-800">
      <span className={visible ? '' : 'sr-only'}>{label}</span>
      <input
        type="time"
        name={name}
        defaultValue={values[name] ?? ''}
        className={`${visible ? 'mt-1 ' : ''}${fieldStyle} w-32`}
      />
    </label>
  )
}

function DateInput({ name, label, values }: { name: string; label: string; values: Record<string, string> }) {
  return (
    <label className="text-sm font-semibold text-stone-800">
      {label}
      <input type="date" name={name} defaultValue={values[name] ?? ''} className={`mt-1 ${fieldStyle} w-44`} />
    </label>
  )
}

function FindUsFields(fields: Fields) {
  return (
    <Section title="Where to find the farm" id="find-us-section">
      <Field
        {...fields}
        name="address"
        label="Address"
        hint="As it goes on an envelope; ‘Open in a map’ searches for it on OpenStreetMap."
        rows={3}
        maxLength={wordLimits.address}
      />
      <Field {...fields} name="directions" label="Directions in words" rows={3} maxLength={wordLimits.directions} />
      <Field {...fields} name="phone" label="Phone" type="tel" maxLength={wordLimits.phone} />
    </Section>
  )
}
