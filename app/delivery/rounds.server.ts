// The round runner: how every sender of the delivery engine runs.

/**
 * One round at a time, on a timer: how each sender runs (the owner's mail, the updates, the
 * webhook, the pushes). `wake()` starts a round now, or one more right after the round under way; a round
 * resolves with when the next is due (ms since the epoch) or null for never, and the runner sleeps
 * until then. A round that throws is told to `failed` and tried again after `retryMs`.
 */
export function roundsOnATimer({
  round,
  retryMs,
  failed,
  now = Date.now,
}: {
  round: () => Promise<number | null>
  retryMs: number
  failed: (error: unknown) => void
  now?: () => number
}) {
  let timer: NodeJS.Timeout | undefined
  let underWay: Promise<void> | null = null
  let again = false
  let stopped = false

  function sleepUntil(at: number) {
    clearTimeout(timer)
    // Through the timer even when due now, so a long run of rounds lets requests in between.
    timer = setTimeout(wake, Math.max(0, at - now()))
    timer.unref()
  }

  function wake(): void {
    if (stopped) return
    if (underWay) {
      again = true
      return
    }
    clearTimeout(timer)
    underWay = round()
      .catch((error: unknown) => {
        failed(error)
        return now() + retryMs
      })
      .then((wakeAt) => {
        underWay = null
        if (stopped) return
        if (again) {
          again = false
          return sleepUntil(now())
        }
        if (wakeAt !== null) sleepUntil(wakeAt)
      })
  }

  return {
    wake,
    /** Stops for good; resolves once the round under way (if any) has ended. */
    stop(): Promise<void> {
      stopped = true
      clearTimeout(timer)
      return underWay ?? Promise.resolve()
    },
  }
}
