import * as z from 'zod/mini'
import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { passkeys, team } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { Opening, OwnerAccess, SignIn } from './owner-access.server'
import { refuse, type Refusal } from '#app/http/refusal.server'

const challengeMs = 5 * 60_000
export const passkeyLimits = { perPerson: 10, challengesAtOnce: 1_000, response: 16_384 }

/** Where the ceremony runs: the name the browser sees (the RP ID) and the page's origin. */
export interface Relying {
  rpID: string
  origin: string
}

const notAccepted = refuse(400, 'That passkey was not accepted. Try again, or sign in with your password.')

/** What a browser sends back from navigator.credentials, as JSON: the rest is checked by @simplewebauthn/server. */
const browserAnswer = z.looseObject({
  id: z.string().check(z.maxLength(1_024)),
  response: z.record(z.string(), z.unknown()),
})

function asResponse(body: unknown): z.output<typeof browserAnswer> | null {
  const read = browserAnswer.safeParse(body)
  return read.success ? read.data : null
}

/** `POST /api/passkeys`: the person's password first, then the passkey their browser made. */
export const addingSchema = z.object({ password: z.optional(z.string()), response: z.optional(z.unknown()) })

/** `POST /api/sign-in/passkey`: the signed challenge, and where to go. */
export const signingInSchema = z.object({ response: z.unknown(), redirectTo: z.optional(z.string()) })

/**
 * Passkeys (WebAuthn): a person adds one from their page and signs in with it, nothing typed.
 * Each challenge is the site's, used once, within 5 minutes; kept in memory (at most 1,000 waiting),
 * as a sign-in started before a restart is simply started again. The library is loaded with the
 * first ceremony, so a site whose team never uses passkeys never pays for it.
 */
export function createPasskeys({
  db,
  writes,
  access,
  farmName,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  access: OwnerAccess
  farmName: () => string
  now?: () => number
}) {
  const library = () => import('@simplewebauthn/server')
  // Challenge → whom it was made for (null: a sign-in, anyone's), and until when.
  const waiting = new Map<string, { memberId: number | null; until: number }>()

  function remember(challenge: string, memberId: number | null) {
    const at = now()
    for (const [key, entry] of waiting) if (entry.until <= at) waiting.delete(key)
    // The oldest goes first when a flood fills the map: a real sign-in is at most a few seconds old.
    while (waiting.size >= passkeyLimits.challengesAtOnce) waiting.delete(waiting.keys().next().value!)
    waiting.set(challenge, { memberId, until: at + challengeMs })
  }

  /** Takes a challenge made for this person (or for a sign-in), once. */
  const taken = (memberId: number | null) => (challenge: string) => {
    const entry = waiting.get(challenge)
    waiting.delete(challenge)
    return entry !== undefined && entry.memberId === memberId && entry.until > now()
  }

  const theirs = (memberId: number) =>
    db.select().from(passkeys).where(eq(passkeys.memberId, memberId)).orderBy(asc(passkeys.createdAt)).all()

  return {
    /** What the browser needs to make a passkey for this signed-in person. */
    async registrationOptions(who: { id: number; name: string }, relying: Relying) {
      const person = db.select().from(team).where(eq(team.id, who.id)).get()
      const { generateRegistrationOptions } = await library()
      const options = await generateRegistrationOptions({
        rpName: farmName(),
        rpID: relying.rpID,
        userName: person?.email ?? who.name,
        userDisplayName: who.name,
        userID: new TextEncoder().encode(`farm-team-${who.id}`),
        attestationType: 'none',
        excludeCredentials: theirs(who.id).map((key) => ({ id: key.id, transports: key.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      })
      remember(options.challenge, who.id)
      return options
    },

    /** Keeps the passkey the browser made, or says why not. */
    async register(who: { id: number }, body: unknown, relying: Relying): Promise<{ ok: true } | Refusal> {
      const response = asResponse(body)
      if (!response) return notAccepted
      const { verifyRegistrationResponse } = await library()
      const verified = await verifyRegistrationResponse({
        response: response as never,
        expectedChallenge: taken(who.id),
        expectedOrigin: relying.origin,
        expectedRPID: relying.rpID,
        requireUserVerification: true,
      }).catch(() => null)
      if (!verified?.verified) return notAccepted
      const { credential } = verified.registrationInfo
      return writes.whenFree(() =>
        db.transaction((tx): { ok: true } | Refusal => {
          const [kept] = tx.select({ n: count() }).from(passkeys).where(eq(passkeys.memberId, who.id)).all()
          if ((kept?.n ?? 0) >= passkeyLimits.perPerson) {
            return refuse(409, `You have ${passkeyLimits.perPerson} passkeys already: remove one first.`)
          }
          if (tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, credential.id)).get()) {
            return refuse(409, 'That passkey is kept already.')
          }
          tx.insert(passkeys)
            .values({
              id: credential.id,
              memberId: who.id,
              publicKey: Buffer.from(credential.publicKey).toString('base64url'),
              counter: credential.counter,
              transports: credential.transports ?? [],
              createdAt: new Date(now()),
            })
            .run()
          return { ok: true }
        }),
      )
    },

    /** What the browser needs to offer any passkey the site knows (discoverable: no name typed). */
    async signInOptions(relying: Relying) {
      const { generateAuthenticationOptions } = await library()
      const options = await generateAuthenticationOptions({ rpID: relying.rpID, userVerification: 'required' })
      remember(options.challenge, null)
      return options
    },

    /** A session for the person whose passkey signed the site's challenge. */
    async signIn(body: unknown, relying: Relying, opening: Opening): Promise<SignIn | Refusal> {
      const response = asResponse(body)
      if (!response) return notAccepted
      const found = db
        .select({ key: passkeys, person: team })
        .from(passkeys)
        .innerJoin(team, and(eq(team.id, passkeys.memberId), isNull(team.removedAt)))
        .where(eq(passkeys.id, response.id))
        .get()
      const { verifyAuthenticationResponse } = await library()
      // A passkey the site does not know still spends its challenge: none is tried twice.
      const check = taken(null)
      if (!found) {
        const challenge = (() => {
          try {
            const client = JSON.parse(Buffer.from(String(response.response.clientDataJSON), 'base64url').toString())
            return typeof client?.challenge === 'string' ? client.challenge : ''
          } catch {
            return ''
          }
        })()
        check(challenge)
        return refuse(
          401,
          'That passkey is not one of the team’s. Sign in with your password, or add the passkey on your page.',
        )
      }
      const verified = await verifyAuthenticationResponse({
        response: response as never,
        expectedChallenge: check,
        expectedOrigin: relying.origin,
        expectedRPID: relying.rpID,
        credential: {
          id: found.key.id,
          publicKey: Buffer.from(found.key.publicKey, 'base64url'),
          counter: found.key.counter,
          transports: found.key.transports,
        },
        requireUserVerification: true,
      }).catch(() => null)
      if (!verified?.verified) return notAccepted
      await writes.whenFree(() =>
        db
          .update(passkeys)
          .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: new Date(now()) })
          .where(eq(passkeys.id, found.key.id))
          .run(),
      )
      return {
        ok: true,
        cookie: await access.openSession(found.person.id, opening),
        who: { id: found.person.id, name: found.person.name, role: found.person.role },
      }
    },

    /** Forgets one of their own passkeys. */
    async remove(who: { id: number }, id: string): Promise<boolean> {
      const gone = await writes.whenFree(() =>
        db
          .delete(passkeys)
          .where(and(eq(passkeys.id, id), eq(passkeys.memberId, who.id)))
          .run(),
      )
      return gone.changes > 0
    },
  }
}

export type Passkeys = ReturnType<typeof createPasskeys>
