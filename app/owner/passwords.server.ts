import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { commonPasswords } from './common-passwords'

/**
 * scrypt with N=2^14, r=8, p=5: one of OWASP's equal-strength settings, taking 16 MB a hash
 * rather than 2^17's 128 MB, which a small machine could not give a few sign-ins at once
 * (docs/decisions/030-the-team.md). Stored as `scrypt$N$r$p$salt$hash`, so a hash made with
 * other costs (the single owner's, before the team) is still checked, and made again at sign-in.
 */
const cost = { N: 16384, r: 8, p: 5 }
const keyBytes = 32
export const passwordLimits = { shortest: 12, longest: 256 }

/** The key of a password, of at most `longest` characters (more are never compared), as typed or NFC. */
function derive(password: string, salt: string, options: ScryptOptions, normalized = true): Promise<Buffer> {
  const words = password.slice(0, passwordLimits.longest)
  return new Promise((resolve, reject) =>
    scrypt(
      normalized ? words.normalize('NFC') : words,
      salt,
      keyBytes,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString('base64')
  const key = await derive(password, salt, cost)
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt}$${key.toString('base64')}`
}

const stored = /^scrypt\$(\d{1,7})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]{1,64})\$([A-Za-z0-9+/=]{1,128})$/

/** Whether the password is the one the hash was made from; `again` when it was made with older costs. */
export async function checkPassword(
  password: string,
  hash: string | null,
): Promise<{ right: boolean; again: boolean }> {
  const parts = hash ? stored.exec(hash) : null
  // Without a hash, the same work is done, so a wrong address takes as long as a wrong password.
  const [, n, r, p, salt, key] = parts ?? ['', String(cost.N), String(cost.r), String(cost.p), 'none', '']
  const options = { N: Number(n), r: Number(r), p: Number(p) }
  const expected = Buffer.from(key!, 'base64')
  // The single owner's hash (before the team, p=1) was made from the password as typed, not NFC.
  const legacy = options.N === 16384 && options.r === 8 && options.p === 1
  const made = await derive(password, salt!, options, !legacy)
  const right = parts !== null && expected.length === made.length && timingSafeEqual(expected, made)
  return { right, again: right && (options.N !== cost.N || options.r !== cost.r || options.p !== cost.p) }
}

/** Why a new password is refused, in words for the form, or null when it will do. */
export function passwordProblem(password: string, person: { email?: string | null; name?: string }): string | null {
  if (password.length < passwordLimits.shortest) {
    return `Use at least ${passwordLimits.shortest} characters: a few words you will remember make a good one.`
  }
  if (password.length > passwordLimits.longest) return `Use at most ${passwordLimits.longest} characters.`
  const lower = password.toLowerCase()
  if (commonPasswords.has(lower) || new Set(lower).size < 4) {
    return 'That password is one of the commonest, the first a stranger would try. Choose another.'
  }
  const own = [person.email, person.email?.split('@')[0], person.name].filter(
    (word): word is string => typeof word === 'string' && word.length >= 4,
  )
  if (own.some((word) => lower.includes(word.toLowerCase()))) {
    return 'That password holds your name or address, the first a stranger would try. Choose another.'
  }
  return null
}
