import { and, desc, eq, gte, lt } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import type { ActivityKind } from '#app/data/enums'
import { activity, team } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'

const dayMs = 24 * 60 * 60 * 1000
export const activityPageSize = 50
/** The site's own words only; never longer than this. */
const longestDetail = 300

export interface ActivityEntry {
  id: number
  at: number
  kind: ActivityKind
  /** Who did it: a name of the team, 'Someone not signed in' (a failed sign-in), 'The command line' (a restore), or 'Anyone (the inbox is open)'. */
  who: string
  detail: string
  /** The visitor it was about, as the erasure list's salted hash: the same person shows the same. */
  subjectHash: string | null
  address: string | null
}

export interface Doing {
  kind: ActivityKind
  /** Who of the team did it (of a failed sign-in: the account tried); null for a stranger or an open inbox. */
  by: number | null
  detail: string
  /** The visitor's address it was about: kept only as the erasure list's salted hash. */
  about?: string
  address?: string
}

/**
 * The activity log: what was done with the farm's data and team, by whom, kept `keepDays` days
 * and swept as new entries come. Read newest first, a page at a time, by its time index.
 */
export function createActivityLog({
  db,
  writes,
  hashOfAddress,
  keepDays,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  hashOfAddress: (address: string) => string
  keepDays: () => number
  now?: () => number
}) {
  const rowOf = (doing: Doing) => ({
    at: new Date(now()),
    kind: doing.kind,
    memberId: doing.by,
    detail: doing.detail.slice(0, longestDetail),
    subjectHash: doing.about === undefined ? null : hashOfAddress(doing.about),
    address: doing.address?.slice(0, 64) ?? null,
  })
  return {
    /** Inside a transaction that does it: the entry stands or falls with the deed. */
    recordIn(tx: Pick<FarmDatabase, 'insert'>, doing: Doing) {
      tx.insert(activity).values(rowOf(doing)).run()
    },
    /** After the deed (a download streamed, a sign-in refused): its own write, and the old swept. */
    async record(doing: Doing) {
      await writes.whenFree(() =>
        db.transaction((tx) => {
          tx.insert(activity).values(rowOf(doing)).run()
          tx.delete(activity)
            .where(lt(activity.at, new Date(now() - keepDays() * dayMs)))
            .run()
        }),
      )
    },
    /** Newest first, `activityPageSize` at a time, older than the id given. */
    page(before: number | null): { entries: ActivityEntry[]; next: number | null } {
      const rows = db
        .select({ entry: activity, name: team.name })
        .from(activity)
        .leftJoin(team, eq(team.id, activity.memberId))
        .where(
          and(
            // What is past its days is never shown, swept or not yet.
            gte(activity.at, new Date(now() - keepDays() * dayMs)),
            before === null ? undefined : lt(activity.id, before),
          ),
        )
        .orderBy(desc(activity.id))
        .limit(activityPageSize + 1)
        .all()
      const entries = rows.slice(0, activityPageSize).map(({ entry, name }) => ({
        id: entry.id,
        at: entry.at.getTime(),
        kind: entry.kind,
        ...(entry.kind === 'sign-in-failed'
          ? { who: 'Someone not signed in', detail: name ? `${entry.detail} for ${name}` : entry.detail }
          : {
              who: name ?? (entry.address === null ? 'The command line' : 'Anyone (the inbox is open)'),
              detail: entry.detail,
            }),
        subjectHash: entry.subjectHash,
        address: entry.address,
      }))
      return { entries, next: rows.length > activityPageSize ? entries.at(-1)!.id : null }
    },
  }
}

export type ActivityLog = ReturnType<typeof createActivityLog>
