import { createHash } from 'node:crypto'
import type { TeamRole } from '#app/data/enums'

// What the team's access is made of, for its parts and for those who use it.

/** A random id of 32 bytes in base64url, as sessions, invitations and set-up links are made. */
export const tokenShape = /^[A-Za-z0-9_-]{43}$/

/** A person of the farm’s team, as every action they take records them. */
export interface TeamMember {
  /** Null for anyone at all: the inbox is open (no one has a way to sign in), so no one in particular acted. */
  id: number | null
  name: string
  role: TeamRole
}

/** Who is let in, by which session (its id's hash, never the id), and until when. */
export interface OwnerPass {
  who: TeamMember
  /** Null when the inbox is open and everyone is let in. */
  session: string | null
  expiresAt: number
}

export type SignIn =
  | { ok: true; cookie: string; who: TeamMember }
  | { ok: false; status: 401 | 429; error: string; retryAfterSeconds?: number; memberId: number | null }

/** The request a session is opened for: over HTTPS or not (the cookie's Secure), and the session it replaces. */
export interface Opening {
  secure: boolean
  cookieHeader: string | null
  /** Where the request came from: wrong passwords are counted per account and address. */
  address?: string
}

export interface OwnerAccess {
  /** Whether the inbox is behind a sign-in: someone of the team has a password or a passkey. */
  readonly required: boolean
  /** The live session the request's cookies name, or null. Everyone's, while the inbox is open. */
  passFor(cookieHeader: string | null | undefined): Promise<OwnerPass | null>
  /**
   * Calls back with each session that ends, so what it opened (a live socket) closes too; with
   * null when the open inbox closes (someone can sign in now), for what anyone opened in it.
   */
  onSignOut(listener: (session: string | null) => void): void
  /**
   * A new session for the right address and password (an empty address: the first owner, made
   * from OWNER_PASSWORD, who has not given one), ending the one the request came with.
   */
  signIn(attempt: { email: string; password: string }, opening: Opening): Promise<SignIn>
  /** A new session for someone already proven (a passkey, an invitation taken), ending the request's. */
  openSession(memberId: number, opening: Opening): Promise<string>
  /** Ends the session the cookies name, on the server too, and clears the cookie. */
  signOut(cookieHeader: string | null | undefined, cookie: { secure: boolean }): Promise<string>
  /** Ends every session of theirs (sign out everywhere, removed, a new role); their sockets close. */
  endSessionsOf(memberId: number): Promise<number>
  /** Whether this is their password now, counted as a sign-in's wrong passwords are. */
  checkOwnPassword(memberId: number, password: string, address: string): Promise<'right' | 'wrong' | 'too-many'>
  /** Their new password, or why it is refused; their other sessions end. */
  setPassword(memberId: number, password: string, keep?: string | null): Promise<string | null>
  /** After someone gained or lost their way in: whether the inbox is behind a sign-in now. */
  recount(): void
}

/** What is kept of a token (a session's, an invitation's): its SHA-256, so a copy of the database opens nothing. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')
