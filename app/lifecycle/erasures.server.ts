import { createHmac, randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { erasures, signingKeys } from '#app/data/schema'
import type { Log } from '#app/log'
import { keptAddress } from '#app/leads/address.server'
import { mailboxKey } from '#app/leads/mailbox'

const saltName = 'erasures'

/**
 * A person's address as their submissions are matched: trimmed, its domain in the one form the
 * site keeps (keptAddress), its ASCII letters in lower case, exactly as SQLite's lower() folds the
 * stored address (other letters keep their case there too).
 */
export const personKey = (address: string) => asSqliteLowers(keptAddress(address.trim()))

/** A text with its ASCII letters in lower case, as SQLite's lower() folds it (other letters keep their case). */
export const asSqliteLowers = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())

/** The mailbox a person's address reaches (see mailboxKey), as their subscription is matched. */
export const personMailbox = (address: string) => mailboxKey(address.trim())

/** One forgetting of a person: the two hashes they are matched by again, and when. */
export interface Erasure {
  hash: string
  mailbox: string
  at: number
  /** They had left the updates: their mailbox is never asked again. */
  unsubscribed?: boolean
}

/** Of two records of one person, the one that holds: the later forgetting, and a 'left the updates' either says. */
function laterOf(kept: Erasure | undefined, next: Erasure): Erasure {
  if (!kept) return next
  const unsubscribed = kept.unsubscribed === true || next.unsubscribed === true
  return { ...(next.at > kept.at ? next : kept), ...(unsubscribed ? { unsubscribed } : {}) }
}

/** Whether a record says more than another of the same person: a later forgetting, or that they had left the updates. */
const says = (erasure: Erasure, than: Erasure | undefined) =>
  !than || erasure.at > than.at || (erasure.unsubscribed === true && than.unsubscribed !== true)

/**
 * The list of everyone forgotten, as salted hashes (HMAC-SHA256), never addresses: of the address
 * (their submissions) and of the mailbox it reaches (their subscription). Kept in the database
 * and, a line for each forgetting, in a file beside the backups (`file`), so a backup restored
 * from before a forgetting is made to forget again when the site starts, however many times the
 * person wrote and was forgotten since. The salt is the file's first line and is kept in the
 * database too. A line that cannot be read (one a crash cut short) is skipped: the database's
 * own record puts it back.
 */
export function createErasureList({ db, file, log }: { db: FarmDatabase; file: string; log: Log }) {
  const written = existsSync(file) ? readFileSync(file, 'utf8') : ''
  // A line a crash cut short ends without its newline: the next line must not join it.
  let cutShort = written !== '' && !written.endsWith('\n')
  const lines = written
    ? written
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line): Partial<Erasure> & { salt?: string } => {
          try {
            return JSON.parse(line) as Partial<Erasure> & { salt?: string }
          } catch {
            return {}
          }
        })
    : []
  const stored = db.select().from(signingKeys).where(eq(signingKeys.name, saltName)).get()?.key
  const fileSalt = lines[0]?.salt
  if (lines.length > 0 && !fileSalt) {
    throw new Error(
      `${file} does not begin with its salt: restore it from a copy, or move it aside to start a new list.`,
    )
  }
  const salt = fileSalt ?? stored ?? randomBytes(32).toString('base64url')
  if (stored !== salt) {
    db.insert(signingKeys)
      .values({ name: saltName, key: salt, createdAt: new Date() })
      .onConflictDoUpdate({ target: signingKeys.name, set: { key: salt } })
      .run()
  }
  const listed = new Map<string, Erasure>()
  let unreadable = 0
  for (const line of lines.slice(1)) {
    if (typeof line.hash === 'string' && typeof line.mailbox === 'string' && typeof line.at === 'number') {
      const erasure: Erasure = { hash: line.hash, mailbox: line.mailbox, at: line.at }
      if (line.unsubscribed === true) erasure.unsubscribed = true
      listed.set(line.hash, laterOf(listed.get(line.hash), erasure))
    } else unreadable++
  }

  /**
   * Adds lines to the file, flushed to disk. A folder that cannot be written (a NAS mount gone)
   * never stops the site: the database's own records are the list, and the file gets them at
   * the next start that can write it.
   */
  function append(text: string): boolean {
    try {
      mkdirSync(dirname(file), { recursive: true })
      const descriptor = openSync(file, 'a', 0o600)
      try {
        writeSync(descriptor, cutShort ? `\n${text}` : text)
        cutShort = false
        fsyncSync(descriptor)
      } finally {
        closeSync(descriptor)
      }
      return true
    } catch (error) {
      log.error(
        { err: error, file },
        'could not write the erasure list beside the backups; it is written at the next start',
      )
      return false
    }
  }
  const fileStarted = lines.length > 0 || append(`${JSON.stringify({ salt })}\n`)
  const hmac = (text: string) => createHmac('sha256', salt).update(text).digest('base64url')
  const hashOfAddress = (address: string) => hmac(personKey(address))
  const hashOfMailbox = (address: string) => hmac(`mailbox:${personMailbox(address)}`)

  return {
    /** Lines of the file that could not be read, skipped. */
    unreadable,
    hashOfAddress,
    hashOfMailbox,
    /** The two hashes a person is recorded by. */
    erasureOf: (address: string, at: number): Erasure => ({
      hash: hashOfAddress(address),
      mailbox: hashOfMailbox(address),
      at,
    }),

    /** Adds a forgetting the database has just recorded to the file, flushed to disk: each one, the second too. */
    recordInFile(erasure: Erasure) {
      if (!fileStarted || !says(erasure, listed.get(erasure.hash))) return
      if (append(`${JSON.stringify(erasure)}\n`)) listed.set(erasure.hash, laterOf(listed.get(erasure.hash), erasure))
    },

    /**
     * What the file and the database disagree on: the forgettings the file holds that the database
     * lacks or holds an earlier one of (it came from a backup older than them), returned; and the
     * database's the file lacks (the file could not be written, or the process stopped between
     * the two), added to it here.
     */
    reconcile(): Erasure[] {
      const inDatabase = new Map(
        db
          .select()
          .from(erasures)
          .all()
          .map((row): [string, Erasure] => [
            row.addressHash,
            {
              hash: row.addressHash,
              mailbox: row.mailboxHash,
              at: row.erasedAt.getTime(),
              ...(row.unsubscribed ? { unsubscribed: true } : {}),
            },
          ]),
      )
      const fileLacks = [...inDatabase.values()].filter((erasure) => says(erasure, listed.get(erasure.hash)))
      if (
        fileLacks.length > 0 &&
        fileStarted &&
        append(fileLacks.map((erasure) => `${JSON.stringify(erasure)}\n`).join(''))
      ) {
        for (const erasure of fileLacks) listed.set(erasure.hash, laterOf(listed.get(erasure.hash), erasure))
      }
      return [...listed.values()].filter((erasure) => says(erasure, inDatabase.get(erasure.hash)))
    },
  }
}

export type ErasureList = ReturnType<typeof createErasureList>
