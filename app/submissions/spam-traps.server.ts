import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { spamTrapFields } from './contact-form'

interface Options {
  /** Signs the form's start time; without one, a random key lives as long as the process. */
  secret: string | undefined
  minFillSeconds: number
  now?: () => number
}

export interface SpamTraps {
  /** A signed note of when a form was handed out, for its hidden field. */
  issueToken(): string
  /** Whether a submission walked into a trap: the hidden field filled, or sent too fast. */
  isCaught(input: unknown): boolean
}

export function createSpamTraps({ secret, minFillSeconds, now = Date.now }: Options): SpamTraps {
  const key = secret ?? randomBytes(32).toString('hex')
  const sign = (issuedAt: string) => createHmac('sha256', key).update(issuedAt).digest('base64url')

  function issuedAt(token: unknown): number | undefined {
    if (typeof token !== 'string') return undefined
    const [time = '', signature = ''] = token.split('.')
    const expected = sign(time)
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      return undefined
    }
    return Number(time)
  }

  return {
    issueToken() {
      const time = String(now())
      return `${time}.${sign(time)}`
    },
    isCaught(input) {
      if (typeof input !== 'object' || input === null) return false
      const fields = input as Record<string, unknown>
      const honeypot = fields[spamTrapFields.honeypot]
      if (honeypot !== undefined && honeypot !== '') return true
      // A token that does not verify (say, issued before a restart) proves nothing either way;
      // a real visitor's message must never be dropped for it.
      const started = issuedAt(fields[spamTrapFields.startedAt])
      return started !== undefined && now() - started < minFillSeconds * 1000
    },
  }
}
