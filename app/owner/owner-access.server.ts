import { createHash, timingSafeEqual } from 'node:crypto'
import { createCookie } from '@remix-run/node'

const thirtyDaysInSeconds = 60 * 60 * 24 * 30

export interface OwnerAccess {
  /** Whether the inbox is behind a password at all (OWNER_PASSWORD set). */
  required: boolean
  /** Whether the request's cookies may see the inbox. */
  mayWatch(cookieHeader: string | null | undefined): Promise<boolean>
  /** A Set-Cookie value for the right password, otherwise null. */
  signIn(password: string): Promise<string | null>
  signOut(): Promise<string>
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

interface Options {
  password: string | undefined
  sessionSecret: string | undefined
  secureCookie: boolean
}

export function createOwnerAccess({ password, sessionSecret, secureCookie }: Options): OwnerAccess {
  if (!password) {
    return {
      required: false,
      mayWatch: async () => true,
      signIn: async () => null,
      signOut: async () => '',
    }
  }
  const passwordDigest = digest(password)
  // Changing the password signs every owner out, with or without SESSION_SECRET.
  const passwordKey = digest(`owner-key:${password}`).toString('base64url').slice(0, 16)
  const cookie = createCookie('farm_owner', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie,
    path: '/',
    maxAge: thirtyDaysInSeconds,
    secrets: [sessionSecret ?? digest(`session-secret:${password}`).toString('base64url')],
  })

  return {
    required: true,
    async mayWatch(cookieHeader) {
      const value = await cookie.parse(cookieHeader ?? null)
      return typeof value === 'object' && value !== null && value.owner === passwordKey
    },
    async signIn(attempt) {
      if (!timingSafeEqual(digest(attempt), passwordDigest)) return null
      return cookie.serialize({ owner: passwordKey })
    },
    signOut() {
      return cookie.serialize('', { maxAge: 0 })
    },
  }
}
