import type { LiveMessage } from './submission'

/**
 * One event on the in-process stream, shaped like a Server-Sent Event: the
 * submission id is the event id, so a watcher can resume after the last one.
 */
export type SubmissionEvent = LiveMessage & { id: string }

type Listener = (event: SubmissionEvent) => void

export class SubmissionEvents {
  readonly #listeners = new Set<Listener>()

  publish(message: LiveMessage) {
    const event: SubmissionEvent = { ...message, id: String(message.data.id) }
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
