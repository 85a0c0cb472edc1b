import * as z from 'zod/mini'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { spamTrapFields } from './contact-fields'
import type { SpamReason } from '#app/data/enums'

interface Options {
  /** Signs the form's start time; without one, a random key lives as long as the process. */
  secret: string | undefined
  minFillSeconds: number
  now?: () => number
}

export interface SpamTraps {
  /** A signed note of when a form was handed out, for its hidden field. */
  issueToken(): string
  /** The traps a submission walked into: the hidden field filled, or sent too fast. None for a person. */
  caughtBy(input: unknown): SpamReason[]
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
    caughtBy(input) {
      const read = z.record(z.string(), z.unknown()).safeParse(input)
      if (!read.success) return []
      const fields = read.data
      const caught: SpamReason[] = []
      const honeypot = fields[spamTrapFields.honeypot]
      if (honeypot !== undefined && honeypot !== '') caught.push('honeypot')
      // A token that does not verify (say, issued before a restart) proves nothing either way.
      const started = issuedAt(fields[spamTrapFields.startedAt])
      if (started !== undefined && now() - started < minFillSeconds * 1000) caught.push('filled_too_fast')
      return caught
    },
  }
}
