import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { Log } from '#app/log'
import { createDelivering } from './delivering.server'
import { roundsOnATimer } from './rounds.server'
import type { Dkim } from './dkim.server'
import type { Sender } from './sender.server'
import { postSigned } from './signed-post.server'
import type { SendMailOptions } from 'nodemailer'
import { createSmtpTransport, type SmtpTransport } from './smtp-transport.server'

/** How the engine runs a sender's rounds. */
interface SenderPolicy {
  /** Names the sender in the log: 'owner mail', 'updates', 'webhook', 'pushes'. */
  name: string
  /** Sends what is due now; resolves with when something next falls due (ms since the epoch), or null. */
  round: () => Promise<number | null>
  /** After a round that threw, the next is tried this long after. */
  retryMs: number
  /** Whether a commit that owes something may have given this sender work (a cheap guard), else it stays asleep. */
  mayHaveWork?: () => boolean
  /** At a stop, once its rounds have ended: mark what the receiver accepted but could not be marked yet. */
  lastly?: () => Promise<void>
}

/**
 * A sender's `mayHaveWork` for work only some commits owe (a push, a mail to a visitor): yes once
 * after each `owed()`, so it sleeps through the commits that owed it nothing.
 */
export function owedSinceLastLook() {
  let owed = false
  return {
    owed: () => void (owed = true),
    mayHaveWork: () => {
      const may = owed
      owed = false
      return may
    },
  }
}

// Past this at a stop, what is still on its way is left to the receiver's own timeout, and then
// the last marking gets its own short while: the server's shutdown deadline (8 s) must still
// leave time to close the database.
const stopWithinMs = 6_000
const lastMarkingWithinMs = 1_500

/**
 * The delivery engine: every kind of thing the site owes someone (the owner's mail, the mails to
 * visitors, the updates, the webhook's posts, the phones' pushes) is sent by a sender it runs, one
 * round at a time on one clock. A commit that owes something calls `owed()`, the one way to wake
 * them. `stop()` ends every sender and waits for what is on its way to be answered and marked
 * before any transport is closed, so nothing accepted is left unmarked and sent again after a restart.
 */
export function createDeliveryEngine({
  db,
  writes,
  log,
  dkim,
  now = Date.now,
}: {
  db: FarmDatabase
  writes: Writes
  log: Log
  /** The farm's DKIM key: every mail is signed with it. */
  dkim?: Pick<Dkim, 'keyFor'>
  now?: () => number
}) {
  const senders: Array<{ policy: SenderPolicy; rounds: ReturnType<typeof roundsOnATimer> }> = []
  const transports: SmtpTransport[] = []
  let stopping = false

  function run(policy: SenderPolicy) {
    const rounds = roundsOnATimer({
      round: policy.round,
      retryMs: policy.retryMs,
      failed: (error) => log.error({ err: error, sender: policy.name }, `the ${policy.name} owed could not be read`),
      now,
    })
    senders.push({ policy, rounds })
    return { wake: rounds.wake }
  }

  return {
    now,
    /**
     * Runs a feature's sender: the engine picks what is due and writes what each answer means
     * (app/delivery/sender.ts); `wake()` starts a round now (when it has work of its own).
     */
    deliver<Item, Setup>(sender: Sender<Item, Setup>) {
      const delivering = createDelivering({ sender, db, writes, log, now, stopping: () => stopping })
      return run({
        name: sender.name,
        round: delivering.round,
        retryMs: sender.retryBaseMs,
        mayHaveWork: delivering.mayHaveWork,
        lastly: delivering.lastly,
      })
    },
    /**
     * A transport to the mail servers the settings name, one at a time. `pool` keeps one connection open between mails (an update's
     * many); a sender that gets its own never makes the owner's mail wait behind a campaign.
     */
    smtp(options: { pool?: boolean } = {}): SmtpTransport {
      const transport = createSmtpTransport({ ...options, dkim })
      transports.push(transport)
      return transport
    },
    /**
     * One mail or post now, outside what is owed: the owner's tests of settings not saved yet,
     * through the same transports and the same signing as what the senders carry.
     */
    once: {
      async mail(url: string, mail: SendMailOptions) {
        const transport = createSmtpTransport({ dkim })
        try {
          await transport.send(url, mail)
        } finally {
          transport.close()
        }
      },
      /** Connects and signs in without sending: the server's own words when it cannot. */
      async verify(url: string) {
        const transport = createSmtpTransport()
        try {
          await transport.verify(url)
        } finally {
          transport.close()
        }
      },
      post: postSigned,
    },
    /** A commit just owed something: each sender that may have work looks for it. */
    owed() {
      for (const { policy, rounds } of senders) if (policy.mayHaveWork?.() ?? true) rounds.wake()
    },
    /** Every sender looks for what a previous run left. */
    start() {
      for (const { rounds } of senders) rounds.wake()
    },
    /**
     * Stops every sender; resolves once what each had on its way is answered and marked (or after
     * a few seconds, when a receiver holds its answer), and only then closes the transports.
     */
    async stop() {
      stopping = true
      const within = async (work: Promise<unknown>, ms: number) => {
        let timer: NodeJS.Timeout | undefined
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, ms, 'late')))
        const ended = await Promise.race([work, late])
        clearTimeout(timer)
        return ended !== 'late'
      }
      if (!(await within(Promise.all(senders.map(({ rounds }) => rounds.stop())), stopWithinMs))) {
        log.warn({ afterMs: stopWithinMs }, 'something owed was still on its way at the stop')
      }
      await within(Promise.all(senders.map(({ policy }) => policy.lastly?.())), lastMarkingWithinMs)
      for (const transport of transports) transport.close()
    },
  }
}

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>
