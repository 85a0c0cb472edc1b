import type { DeliveryKind } from '#app/data/enums'
import type { FarmDatabase } from '#app/data/database.server'
import type { DeliveryRow } from '#app/data/schema'

/**
 * What a sender says of one try. It only builds and carries the message; what each answer means
 * for the rows (their state, the backoff, giving up, a pause, the words kept) is the engine's.
 * - `sent`: the receiver took it; `sentIn` names what held more than one row (a digest, a burst).
 * - `refused`: refused for good, in the receiver's words: failed, not tried again; `gone` when the
 *   address itself will never take anything (a 5.1.1, a phone's 410): nothing more goes to it.
 * - `refusedMessage`: refused for what is in this message: a message of several rows is halved
 *   and each half sent again (when the sender can regroup); one row fails only once the receiver
 *   took another message this round, else it is tried again.
 * - `later`: not taken now, for this message alone: tried again after a backoff.
 * - `receiverDown`: the receiver cannot take anything now: this one is tried again after a
 *   backoff, and everything else for the same receiver waits until then (a pause kept in the
 *   database, so a restart does not hurry it).
 * - `notYet`: not tried, left until then (the phone was told a burst this minute).
 * - `skipped`: no longer owed (the subscriber left, the phone's notifications are off).
 */
export type Verdict =
  | { sent: true; sentIn?: string | null }
  | { refused: string; gone?: boolean }
  | { refusedMessage: string }
  | { later: string }
  | { receiverDown: string }
  | { notYet: Date }
  | { skipped: string }

/** A row owed, as the engine read it. */
export type OwedRow = DeliveryRow

/** What the rows are about, once each: the ids a sender reads its own rows by (its leads, mails, phones). */
export const idsOf = (
  rows: OwedRow[],
  about: 'submissionId' | 'replyId' | 'updateId' | 'subscriberId' | 'phoneId' | 'memberId' | 'orderEventId',
): number[] => [...new Set(rows.map((row) => row[about]).filter((id) => id !== null))]

/** One message a sender will send: the rows it tells of, and what the sender needs to build it. */
export interface Batch<Item> {
  rows: OwedRow[]
  item: Item
  /** Who takes it, when not the kind's one server (a phone's push service): a pause holds only its own. */
  receiver?: string
}

/** The states a round writes, as a sender's `settled` hears of them. */
export type Settled = 'sent' | 'failed' | 'gave-up' | 'retrying' | 'skipped'

/**
 * A sender, as a feature hands it to the engine: what kind it sends, what is due, and how one
 * message is carried. `Setup` is what a round sends with, read once at its start (null while off:
 * what is owed waits).
 */
export interface Sender<Item, Setup> {
  kind: DeliveryKind
  /** Names it in the log: 'owner mail', 'updates'. */
  name: string
  setup: () => Setup | null
  /** The first retry waits this long (NOTIFY_RETRY_SECONDS); each next one twice as long. */
  retryBaseMs: number
  /** At most this many due rows a round reads (40 unless said). */
  mostRowsPerRound?: (setup: Setup) => number
  /**
   * The messages to send of the rows due at `at` (those failing for a day are given up already).
   * `lookAgainAt`: when some are held back on purpose (the digest's window), the next round is
   * not before then, and a commit does not wake one sooner.
   */
  batchesOf: (rows: OwedRow[], setup: Setup, at: number) => { batches: Array<Batch<Item>>; lookAgainAt?: number | null }
  send: (batch: Batch<Item>, setup: Setup) => Promise<Verdict>
  /** Builds the message for part of a batch's rows, to send a refused message in halves. */
  regroup?: (batch: Batch<Item>, rows: OwedRow[]) => Batch<Item>
  /** At most this many messages a round (a message refused again and again is halved in turn). */
  mostPerRound?: number
  /** The wait between two messages (UPDATES_PER_MINUTE's): a round sends one, then sleeps. */
  paceMs?: (setup: Setup) => number
  /** Written in the same transaction as the state: the feature's own rows that follow from it. */
  settled?: (
    tx: Pick<FarmDatabase, 'update' | 'delete' | 'select'>,
    rows: OwedRow[],
    state: Settled,
    verdict?: Verdict,
  ) => void
  /** After the commit: who watches is told. */
  told?: (rows: OwedRow[], state: Settled) => void
  /** What waits, added to the log's lines about a failure. */
  backlog?: () => Record<string, number>
  /** The log's words: what could not be sent, refused, given up ('could not mail the owner'). */
  words: { later: string; refused: string; gaveUp: string }
  /** Whether a commit that owed something may have given it work (else it sleeps through it). */
  mayHaveWork?: () => boolean
}
