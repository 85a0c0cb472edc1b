import type { Verdict } from './sender.server'
import { propertyOf, textOf } from '#app/outside'

/**
 * What a mail server's answer means for one mail, said once for every kind of mail the site sends:
 * - `address-gone`: a 5xx at RCPT TO whose enhanced status says the address itself is bad (5.1.x)
 *   or disabled (5.2.1): no mail will ever reach it;
 * - `recipient-refused`: another 5xx at RCPT TO (a policy such as 5.7.1): this mail to this
 *   address, however often it is tried;
 * - `message-refused`: a 5xx at DATA: this message, for what is in it;
 * - `recipient-later`: a 4xx at RCPT TO for this address alone (greylisting, a full mailbox),
 *   but not 421, which closes the connection for everyone, nor 4.7.x, a limit on the sender;
 * - `later`: anything else (unreachable, busy, a wrong password, a refused sender): the server's
 *   state or setup, so every mail waits and is tried again.
 */
export type SmtpVerdict = 'address-gone' | 'recipient-refused' | 'message-refused' | 'recipient-later' | 'later'

export function smtpVerdict(error: unknown): SmtpVerdict {
  const responseCode = propertyOf(error, 'responseCode')
  const command = propertyOf(error, 'command')
  const response = propertyOf(error, 'response')
  if (typeof responseCode !== 'number') return 'later'
  const words = String(response ?? '')
  if (command === 'RCPT TO' && responseCode >= 500 && responseCode < 600) {
    return /\b5\.(?:1\.\d{1,3}|2\.1)\b/.test(words) ? 'address-gone' : 'recipient-refused'
  }
  if (command === 'DATA' && responseCode >= 500 && responseCode < 600) return 'message-refused'
  if (command === 'RCPT TO' && responseCode >= 400 && responseCode < 500 && responseCode !== 421) {
    return /\b4\.7\.\d/.test(words) ? 'later' : 'recipient-later'
  }
  return 'later'
}

/** The mail server's own words when it answered, else what went wrong on the way. */
export function serverWords(error: unknown): string {
  const response = textOf(error, 'response')
  if (response?.trim()) return response.trim().slice(0, 500)
  return (error instanceof Error ? error.message : String(error)).slice(0, 500)
}

/**
 * What a mail server's answer is, as the engine's verdict on one mail (app/delivery/sender.ts):
 * anything but a refusal of this address or this message is the server's own state, so every
 * mail waits with it.
 */
export function mailVerdict(error: unknown): Verdict {
  const why = serverWords(error)
  const verdict = smtpVerdict(error)
  if (verdict === 'address-gone') return { refused: why, gone: true }
  if (verdict === 'recipient-refused') return { refused: why }
  if (verdict === 'message-refused') return { refusedMessage: why }
  if (verdict === 'recipient-later') return { later: why }
  return { receiverDown: why }
}
