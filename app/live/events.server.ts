import type { LiveMessage } from './messages'

/** What happened to a submission (or several, removed), published once it is committed: the live message without its counts. */
export type SubmissionEvent = LiveMessage extends infer Message
  ? Message extends { counts: unknown }
    ? Omit<Message, 'counts'>
    : never
  : never

type Listener = (event: SubmissionEvent) => void

export class SubmissionEvents {
  readonly #listeners = new Set<Listener>()

  publish(event: SubmissionEvent) {
    for (const listener of this.#listeners) {
      // A broken watcher must not undo or delay a stored submission.
      try {
        listener(event)
      } catch (error) {
        console.error('A submission watcher failed', error)
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
