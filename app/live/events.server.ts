import type { LiveMessage } from './messages'

/** What happened to a submission, published once it is committed: the live message without its counts. */
export type SubmissionNews = Pick<LiveMessage, 'type' | 'data'>

/**
 * One event on the in-process stream, shaped like a Server-Sent Event: the
 * submission id is the event id, so a watcher can resume after the last one.
 */
export type SubmissionEvent = SubmissionNews & { id: string }

type Listener = (event: SubmissionEvent) => void

export class SubmissionEvents {
  readonly #listeners = new Set<Listener>()

  publish(news: SubmissionNews) {
    const event: SubmissionEvent = { ...news, id: String(news.data.id) }
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
