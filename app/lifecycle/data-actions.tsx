import { useState, type FormEvent, type ReactNode } from 'react'
import { callInbox } from '#app/leads/ask-inbox'
import { propertyOf } from '#app/outside'

/**
 * One destructive step, asked once: the summary opens the question, its button does it. A
 * <details> and a form, so it works without JavaScript (the page's action); with it, `run`
 * calls the API and the card leaves at once.
 */
function AskedOnce({
  label,
  question,
  yes,
  intent,
  id,
  run,
}: {
  label: string
  question: ReactNode
  yes: string
  intent: string
  id?: number
  run: () => Promise<string | null>
}) {
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setBusy(true)
    setProblem(await run())
    setBusy(false)
  }
  return (
    <details className="group">
      <summary className="cursor-pointer font-semibold text-red-800 underline">{label}</summary>
      <form method="post" onSubmit={submit} className="mt-2 max-w-md rounded-xl bg-red-50 p-3 ring-1 ring-red-200">
        <p className="text-stone-800">{question}</p>
        {id === undefined ? null : <input type="hidden" name="id" value={id} />}
        <button
          type="submit"
          name="intent"
          value={intent}
          disabled={busy}
          className="mt-2 rounded-full bg-red-700 px-4 py-1.5 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {yes}
        </button>
        {problem ? (
          <p role="alert" className="mt-2 font-medium text-red-800">
            Not done: {problem}
          </p>
        ) : null}
      </form>
    </details>
  )
}

/** A card's rarer actions, folded under 'More': its sender's data to give them, deleting it, forgetting them. */
export function CardDataActions({
  id,
  name,
  email,
  onRemoved,
}: {
  id: number
  name: string
  email: string
  /** This tab deleted the card: it leaves at once (other tabs hear it on the live link). */
  onRemoved: (ids: number[]) => void
}) {
  const person = new URLSearchParams({ email }).toString()
  return (
    <details className="mt-4 border-t border-stone-100 pt-3 text-sm">
      <summary className="cursor-pointer font-semibold text-stone-700 underline">More</summary>
      <div className="mt-2 flex flex-col items-start gap-2">
        <a href={`/api/people?${person}`} download className="font-semibold text-green-800 underline">
          Download {name}’s data (JSON)
        </a>
        <AskedOnce
          label="Delete this lead"
          question="Delete this lead for good? Its message, its analysis and the mails about it go with it; other leads from the same address stay."
          yes="Yes, delete it"
          intent="delete"
          id={id}
          run={async () => {
            const called = await callInbox(`/api/submissions/${id}`, { method: 'DELETE' })
            if ('problem' in called) return called.problem
            onRemoved([id])
            return null
          }}
        />
        <AskedOnce
          label="Forget this person"
          question={
            <>
              Forget <span className="font-semibold break-all">{email}</span>? Everything they sent, the mails to them
              and their subscription are deleted for good; only a note that this was done is kept.
            </>
          }
          yes="Yes, forget them"
          intent="forget"
          id={id}
          run={async () => {
            const called = await callInbox(`/api/people?${person}`, { method: 'DELETE' })
            if ('problem' in called) return called.problem
            // Every card of theirs in this tab leaves at once, whether or not the live link is up.
            onRemoved(removedIn(called.answer) ?? [id])
            return null
          }}
        />
      </div>
    </details>
  )
}

/** The spam folder's 'Empty the spam folder', asked once. */
export function EmptySpamFolder({ onEmptied }: { onEmptied: () => void }) {
  return (
    <div className="mt-6 text-sm">
      <AskedOnce
        label="Empty the spam folder"
        question="Delete every lead in the spam folder for good?"
        yes="Yes, empty it"
        intent="empty-spam"
        run={async () => {
          const called = await callInbox('/api/spam', { method: 'DELETE' })
          if ('problem' in called) return called.problem
          onEmptied()
          return null
        }}
      />
    </div>
  )
}

/** The cards of theirs the answer says left, when it says. */
function removedIn(answer: unknown): number[] | null {
  const removed = propertyOf(propertyOf(answer, 'forgotten'), 'removed')
  return Array.isArray(removed) && removed.every((id) => typeof id === 'number') ? removed : null
}
