import type { ImapFlow } from 'imapflow'
import type { Log } from '#app/log'
import { withoutSecret } from './imap-client.server'
import { mostBytesPerMail } from './limits'
import type { MailBack, Mark } from './mail-back.server'
import { mailHeaders, mostHeaderBytes, tooLargeFromHeaders } from './mail-headers'
import type { MailRead, MailReader } from './mail-reader.server'
import type { ReadBack } from './read-back.server'

/** Messages one round reads at most: more wait for the next round, which follows at once. */
const mostMessagesPerRound = 200

/** A connection to the mailbox, as its reading sees it. */
interface Connection {
  open: ImapFlow
  at: { mailbox: string; folder: string; uidValidity: number }
  /** Where the messages the site acted on go; null leaves them where they are. */
  moveTo: string | null
  password: string
  /** Whether this is still the connection in use: one of before no longer acts. */
  current: () => boolean
  mailBack: MailBack
  reader: MailReader
  log: Log
  /** Told each time the mailbox was read through. */
  readThrough: () => void
}

/**
 * Opens the folder and marks where reading starts; null when it could not be opened or the
 * connection is no longer the one in use.
 */
export async function openFolder(
  open: ImapFlow,
  { mailbox, folder, moveTo }: { mailbox: string; folder: string; moveTo: string | null },
  { mailBack, log }: { mailBack: MailBack; log: Log },
  gone: () => boolean,
): Promise<number | null> {
  // The folder handled messages go to is made once, if it is not there (an error says it is).
  if (moveTo && !gone()) await open.mailboxCreate(moveTo).catch(() => {})
  const opened = gone() ? null : await open.mailboxOpen(folder, { readOnly: !moveTo })
  if (!opened || gone()) return null
  const uidValidity = Number(opened.uidValidity)
  const mark = mailBack.markOf(mailbox)
  if (!mark || mark.uidValidity !== uidValidity) {
    // The first read starts from now: what was in the mailbox before is the owner's. A new
    // UIDVALIDITY means the server numbered the folder again: what it held is not read twice.
    if (mark)
      log.warn({ mailbox: folder }, 'the mailbox was numbered again (UIDVALIDITY): reading from its newest message on')
    await mailBack.skip({ mailbox, uidValidity, uid: Math.max(0, Number(opened.uidNext) - 1) })
  }
  return uidValidity
}

/** The message's header block, from at most its first `mostHeaderBytes`; null when the server gave nothing. */
async function headOf(open: ImapFlow, uid: number): Promise<Buffer | null> {
  const message = await open.fetchOne(String(uid), { source: { maxLength: mostHeaderBytes } }, { uid: true })
  if (!message || !message.source) return null
  const end = message.source.indexOf('\r\n\r\n')
  return end < 0 ? message.source : message.source.subarray(0, end + 4)
}

/** The message's body, when it is within the bytes the site reads; null past them. */
async function bodyOf(open: ImapFlow, uid: number, size: number | null): Promise<Buffer | null> {
  if (size !== null && size > mostBytesPerMail) return null
  // Never more than the cap, even from a server that gave no size.
  const message = await open.fetchOne(String(uid), { source: { maxLength: mostBytesPerMail + 1 } }, { uid: true })
  return message && message.source && message.source.length <= mostBytesPerMail ? message.source : null
}

/**
 * An answer past a limit, from its headers: read by the worker, or as the raw headers say it
 * when even that fails. Null when the reader was closed meanwhile.
 */
async function tooLarge(reader: MailReader, head: Buffer): Promise<ReadBack | null> {
  const fromHeaders = await reader.readHeaders(head)
  if ('stopped' in fromHeaders) return null
  return 'read' in fromHeaders ? fromHeaders.read : tooLargeFromHeaders(mailHeaders(head))
}

/**
 * One message given to the mail-back service: whether the site acted on it. Its headers decide
 * first: the body of a message that answers none of the farm's mails and is no report is never
 * fetched, and one that may only be a report is read as nothing else. What remains is read in
 * the mail reader's worker; an answer past a limit is kept from its headers as too large to
 * read, and the mark moves past it either way. A connection no longer in use does not act.
 */
async function readOne(
  { open, mailBack, reader, log, current }: Connection,
  here: Mark,
  size: number | null,
): Promise<boolean> {
  const { uid } = here
  const head = await headOf(open, uid)
  const concerns = head ? mailBack.concerns(mailHeaders(head)) : null
  if (!head || !concerns) {
    await mailBack.skip(here)
    return false
  }
  const source = await bodyOf(open, uid, size)
  const outcome: MailRead = !source
    ? { pastLimit: 'it is over 1 MB' }
    : concerns === 'answer'
      ? await reader.read(source)
      : await reader.readReport(source)
  if ('stopped' in outcome || !current()) return false
  let read: ReadBack | null
  if ('read' in outcome) read = outcome.read
  else if (concerns === 'answer') {
    log.info(
      { uid, why: outcome.pastLimit },
      'an answer to the farm’s mail is too large to read; kept from its headers',
    )
    read = await tooLarge(reader, head)
  } else {
    // A report past a limit is no report the farm's own small mail brings back: the mail stays.
    log.warn({ uid, err: outcome.pastLimit }, 'could not read a message of the mailbox; left as it is')
    read = { kind: 'notice' }
  }
  if (!read || !current()) return false
  // What it did is kept with the mark: a failure here (the database busy, say) leaves the
  // mark where it was, and the message is read again with the next look.
  const taken = await mailBack.take(read, read.kind === 'mail' && read.tooLarge ? head : source!, here)
  return taken !== null && taken !== 'not ours'
}

/** One connection's reading: what is new, one read at a time; asked while reading, it reads once more after. */
export function mailboxReader(connection: Connection) {
  const { open, at, moveTo, password, current, mailBack, log } = connection
  let reading: Promise<void> | null = null
  let readAgain = false

  async function readNew() {
    const lock = await open.getMailboxLock(at.folder, { readOnly: !moveTo })
    try {
      // The folder may have been numbered again since it was opened: its mark is then another's.
      if (open.mailbox && Number(open.mailbox.uidValidity) !== at.uidValidity)
        throw new Error('the folder was numbered again')
      const mark = mailBack.markOf(at.mailbox)
      const from = (mark?.lastUid ?? 0) + 1
      const waiting: Array<{ uid: number; size: number | null }> = []
      for await (const message of open.fetch(`${from}:*`, { uid: true, size: true }, { uid: true })) {
        if (message.uid >= from) waiting.push({ uid: message.uid, size: message.size ?? null })
      }
      waiting.sort((a, b) => a.uid - b.uid)
      const round = waiting.slice(0, mostMessagesPerRound)
      const handled: number[] = []
      for (const { uid, size } of round) {
        if (!current()) return
        const here = { mailbox: at.mailbox, uidValidity: at.uidValidity, uid }
        if (await readOne(connection, here, size)) handled.push(uid)
      }
      if (moveTo && handled.length > 0) {
        await open.messageMove(handled.join(','), moveTo, { uid: true }).catch((error: unknown) => {
          log.warn(
            { reason: withoutSecret(error, password), folder: moveTo },
            'could not move the messages read to their folder',
          )
        })
      }
      connection.readThrough()
      if (waiting.length > round.length) readAgain = true
    } finally {
      lock.release()
      await connection.reader.rest()
    }
  }

  return function readSoon(): Promise<void> {
    if (reading) {
      readAgain = true
      return reading
    }
    reading = (async () => {
      do {
        readAgain = false
        if (!current()) return
        await readNew()
      } while (readAgain)
    })()
      .catch((error: unknown) => {
        if (!current()) return
        log.warn({ reason: withoutSecret(error, password) }, 'reading the mailbox failed')
        // The link is made again (after a wait), and the message read again.
        open.close()
      })
      .finally(() => {
        reading = null
      })
    return reading
  }
}
