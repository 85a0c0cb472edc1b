import { createHmac, randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { erasures, signingKeys } from '#app/data/schema'

const saltName = 'erasures'

/** The address as it is hashed: case and surrounding spaces do not make another person. */
export const personKey = (address: string) => address.trim().toLowerCase()

/**
 * The list of everyone forgotten, as salted hashes (HMAC-SHA256) of their addresses, never the
 * addresses: kept in the database and, line by line, in a file beside the backups (`file`), so
 * a backup restored from before a forgetting is made to forget again when the site starts.
 * The salt is the file's first line and is kept in the database too.
 */
export function createErasureList({ db, file }: { db: FarmDatabase; file: string }) {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { salt?: string; hash?: string; at?: number })
    : []
  const stored = db.select().from(signingKeys).where(eq(signingKeys.name, saltName)).get()?.key
  const salt = lines[0]?.salt ?? stored ?? randomBytes(32).toString('base64url')
  if (stored !== salt) {
    db.insert(signingKeys)
      .values({ name: saltName, key: salt, createdAt: new Date() })
      .onConflictDoUpdate({ target: signingKeys.name, set: { key: salt } })
      .run()
  }
  const listed = new Map(lines.flatMap((line) => (line.hash ? [[line.hash, line.at ?? 0] as const] : [])))

  function append(text: string) {
    mkdirSync(dirname(file), { recursive: true })
    const descriptor = openSync(file, 'a', 0o600)
    try {
      writeSync(descriptor, text)
      fsyncSync(descriptor)
    } finally {
      closeSync(descriptor)
    }
  }
  if (lines.length === 0) append(`${JSON.stringify({ salt })}\n`)

  return {
    hashOf: (address: string) => createHmac('sha256', salt).update(personKey(address)).digest('base64url'),

    /** Adds an erasure the database has just recorded to the file, flushed to disk. */
    recordInFile(hash: string, at: number) {
      if (listed.has(hash)) return
      append(`${JSON.stringify({ hash, at })}\n`)
      listed.set(hash, at)
    },

    /**
     * What the file and the database disagree on: erasures only the file holds (the database
     * came from a backup older than them), and the database's erasures the file lacks (the
     * process stopped between the two writes), which are added to the file here.
     */
    reconcile(): Map<string, number> {
      const inDatabase = new Map(
        db
          .select()
          .from(erasures)
          .all()
          .map((row) => [row.addressHash, row.erasedAt.getTime()]),
      )
      const missing = [...inDatabase].filter(([hash]) => !listed.has(hash))
      if (missing.length > 0) append(missing.map(([hash, at]) => `${JSON.stringify({ hash, at })}\n`).join(''))
      for (const [hash, at] of missing) listed.set(hash, at)
      return new Map([...listed].filter(([hash]) => !inDatabase.has(hash)))
    },
  }
}

export type ErasureList = ReturnType<typeof createErasureList>
