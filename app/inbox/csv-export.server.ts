import { csvStart, submissionCsvRow } from './csv'
import type { Inbox } from './inbox.server'
import type { InboxView } from './inbox-query'

// Rows per read: each is its own keyset query, short enough that other requests run between them.
const rowsPerChunk = 200

/**
 * The inbox's views as CSV for a spreadsheet, streamed a chunk at a time as the download
 * takes them, so a slow or stalled download holds neither memory nor the database. Each
 * owner (a session, or an address when no password is set) runs a few at once.
 */
export function createCsvExports({
  inbox,
  mostAtOnce,
  timeZone,
}: {
  inbox: Inbox
  mostAtOnce: number
  /** The farm's clock: each row's time as the owner reads it is on it. */
  timeZone: () => string
}) {
  const running = new Map<string, number>()

  return {
    /**
     * The view's rows as a CSV stream, or null while this owner already has `mostAtOnce`
     * running. The place is given back when the stream ends, is cancelled, or the request
     * is abandoned before anyone reads it.
     */
    start(owner: string, view: InboxView, abandoned: AbortSignal): ReadableStream<Uint8Array> | null {
      if (abandoned.aborted) return null
      const already = running.get(owner) ?? 0
      if (already >= mostAtOnce) return null
      running.set(owner, already + 1)
      let finished = false
      const finish = () => {
        if (finished) return
        finished = true
        const left = (running.get(owner) ?? 1) - 1
        if (left > 0) running.set(owner, left)
        else running.delete(owner)
      }
      abandoned.addEventListener('abort', finish, { once: true })
      const pages = inbox.everyPage(view, rowsPerChunk)
      // One clock for the whole file, though the owner change it meanwhile.
      const zone = timeZone()
      const encoder = new TextEncoder()
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(csvStart(zone)))
        },
        pull(controller) {
          try {
            const next = pages.next()
            if (!next.done)
              return controller.enqueue(encoder.encode(next.value.map((row) => submissionCsvRow(row, zone)).join('')))
            finish()
            controller.close()
          } catch (error) {
            finish()
            throw error
          }
        },
        cancel() {
          finish()
          pages.return(undefined)
        },
      })
    },
  }
}

export type CsvExports = ReturnType<typeof createCsvExports>
