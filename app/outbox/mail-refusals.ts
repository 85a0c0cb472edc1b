/**
 * A 5xx for this recipient or this message (at RCPT TO or DATA): the server will not take this
 * mail to this address, however often it is tried. A 5xx anywhere else (a wrong password, a
 * refused sender) is the server's setup, and every mail waits and retries until it is fixed.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown }
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === 'RCPT TO' || command === 'DATA')
  )
}

/** The mail server's own words when it answered, else what went wrong on the way. */
export function serverWords(error: unknown): string {
  const { response } = (error ?? {}) as { response?: unknown }
  if (typeof response === 'string' && response.trim()) return response.trim().slice(0, 500)
  return (error instanceof Error ? error.message : String(error)).slice(0, 500)
}

/**
 * A 5xx for the address itself: at RCPT TO, with an enhanced status that says so (5.1.x, a bad
 * mailbox or address; 5.2.1, a disabled mailbox). Without one, or for a policy (5.7.x, "relaying
 * denied"), it may be the server's own setup; a 5xx at DATA refuses this message, not the address.
 */
export function isRefusedAddress(error: unknown): boolean {
  const { responseCode, command, response } = (error ?? {}) as {
    responseCode?: unknown
    command?: unknown
    response?: unknown
  }
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    command === 'RCPT TO' &&
    /\b5\.(?:1\.\d{1,3}|2\.1)\b/.test(String(response ?? ''))
  )
}
