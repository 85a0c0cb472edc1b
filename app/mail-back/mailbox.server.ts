import type { ImapFlow } from 'imapflow'
import type { Log } from '#app/log'
import { mailFailure } from '#app/delivery/mail-failures.server'
import { clientOf, mailboxOf, testMailbox, withoutSecret } from './imap-client.server'
import { mostBytesPerMail } from './limits'
import type { MailBack } from './mail-back.server'
import type { MailReader } from './mail-reader.server'
import { mailboxReader, openFolder } from './mailbox-reader.server'
import { shortTimeAndZone } from '#app/clock/dates'

export { mailboxOf } from './imap-client.server'

/** The farm's mailbox the site reads (INBOUND_IMAP_URL), and where what it handled goes (INBOUND_MOVE_TO). */
export interface MailboxSettings {
  /** imaps://user:password@host:993/INBOX, or imap:// on 143 with STARTTLS; never logged. */
  url: string
  /** A folder the messages the site acted on are moved to; null leaves them where they are. */
  moveTo: string | null
}

/** How the link to the mailbox is, as /healthz and the updates page show it. */
export interface MailboxLink {
  state: 'off' | 'connecting' | 'watching' | 'failing'
  /** While watching: told of new mail at once (IDLE), or looking every while (the server has no IDLE). */
  idle: boolean | null
  /** The last time it read the mailbox through, and why it last failed (never its password). */
  lastReadAt: string | null
  lastError: string | null
  /** The next try, while failing. */
  retryAt: string | null
}

/** How the link to the farm's mailbox is, in the owner's words; a time on the farm's clock (`zone`). */
export function mailboxLinkWords(link: MailboxLink, zone: string): string {
  switch (link.state) {
    case 'off':
      return 'The farm’s mailbox is not read: answers stay in your mail program, and bounces and complaints are not seen here.'
    case 'connecting':
      return 'Connecting to the farm’s mailbox…'
    case 'watching':
      return link.idle
        ? 'Reading the farm’s mailbox: answers, bounces and complaints arrive here as they come.'
        : 'Reading the farm’s mailbox every minute (its server cannot tell of new mail at once).'
    case 'failing':
      return `Cannot read the farm’s mailbox: ${link.lastError ?? 'no reason given'}. Trying again${link.retryAt ? ` at ${shortTimeAndZone(Date.parse(link.retryAt), zone)}` : ''}.`
  }
}

// While IDLE tells of new mail, a look every while still catches what a dropped notice missed.
const safetyLookMs = 60_000
// A server without IDLE is asked this often.
const pollMs = 10_000
const firstRetryMs = 1_000
const longestRetryMs = 5 * 60_000

/**
 * Watches the farm's mailbox over IMAP: told of new mail by IDLE where the server offers it, else
 * looking every while; on a dropped link, it connects again after a wait that doubles (up to five
 * minutes). Each new message is read once (by UIDVALIDITY and UID, kept with what it did), and one
 * it does not recognise is left exactly as it was: opened read-only unless the owner asked that
 * handled messages be moved, and fetched with BODY.PEEK so no flag changes.
 */
export function watchMailbox({
  settings,
  mailBack,
  reader,
  log,
  now = () => new Date(),
}: {
  settings: () => MailboxSettings | null
  mailBack: MailBack
  /** Reads each message about the farm's mail away from the server's thread. */
  reader: MailReader
  log: Log
  now?: () => Date
}) {
  let link: MailboxLink = { state: 'off', idle: null, lastReadAt: null, lastError: null, retryAt: null }
  let client: ImapFlow | null = null
  let connecting: Promise<void> | null = null
  // Asked to connect while connecting (a change of settings, a retry): done once that settles.
  let connectAgain = false
  let retryTimer: NodeJS.Timeout | undefined
  let lookTimer: NodeJS.Timeout | undefined
  let failures = 0
  let stopped = false
  // A change of settings, or a stop, makes the connection of before someone else's: it no longer acts.
  let generation = 0

  /** The link failed, said in the owner's words (app/delivery/mail-failures), never the password. */
  function failed(why: string) {
    failures++
    const wait = Math.min(longestRetryMs, firstRetryMs * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4)
    link = {
      ...link,
      state: 'failing',
      idle: null,
      lastError: why,
      retryAt: new Date(now().getTime() + wait).toISOString(),
    }
    log.warn(
      { reason: link.lastError, retryInSeconds: Math.round(wait / 1000) },
      'could not read the farm’s mailbox; trying again later',
    )
    clearTimeout(retryTimer)
    retryTimer = setTimeout(() => void connect(), wait)
    retryTimer.unref()
  }

  function connect(): Promise<void> {
    if (connecting) {
      connectAgain = true
      return connecting
    }
    const current = settings()
    const mine = ++generation
    clearTimeout(retryTimer)
    clearInterval(lookTimer)
    client?.close()
    client = null
    if (!current || stopped) {
      link = { state: 'off', idle: null, lastReadAt: null, lastError: null, retryAt: null }
      return Promise.resolve()
    }
    link = { ...link, state: 'connecting', retryAt: null }
    const parts = mailboxOf(current.url)
    const mailbox = `${parts.user}@${parts.host}/${parts.folder}`
    const gone = () => mine !== generation || stopped
    connecting = (async () => {
      const open = await clientOf(parts, {
        connectionTimeout: 15_000,
        socketTimeout: 5 * 60_000,
        maxLineLength: mostBytesPerMail,
        // IDLE (or the server's NOOP looks) starts this soon after the last command: new mail is told within it.
        autoIdleDelay: 500,
        missingIdleCommand: 'NOOP',
        maxIdleTime: safetyLookMs,
      })
      open.on('error', (error: unknown) => {
        if (!gone()) log.warn({ reason: withoutSecret(error, parts.password) }, 'the mailbox link failed')
      })
      try {
        await open.connect()
        const uidValidity = await openFolder(
          open,
          { mailbox, folder: parts.folder, moveTo: current.moveTo },
          { mailBack, log },
          gone,
        )
        if (uidValidity === null || gone()) return void open.close()
        client = open
        const openedAt = Date.now()
        link = {
          state: 'watching',
          idle: open.capabilities.has('IDLE'),
          lastReadAt: link.lastReadAt,
          lastError: null,
          retryAt: null,
        }
        log.info({ folder: parts.folder, idle: link.idle }, 'reading the farm’s mailbox')
        const readSoon = mailboxReader({
          open,
          at: { mailbox, folder: parts.folder, uidValidity },
          moveTo: current.moveTo,
          password: parts.password,
          current: () => !gone(),
          mailBack,
          reader,
          log,
          readThrough: () => {
            link = { ...link, lastReadAt: now().toISOString() }
          },
        })
        open.on('exists', () => void readSoon())
        open.on('close', () => {
          if (gone()) return
          client = null
          clearInterval(lookTimer)
          // A link that held a while earns a fresh start of the waits; one that drops at once does not.
          if (Date.now() - openedAt > longestRetryMs) failures = 0
          failed('the mail server closed the link')
        })
        // Without IDLE, the site looks every few seconds; with it, now and then in case a notice was missed.
        lookTimer = setInterval(() => void readSoon(), link.idle ? safetyLookMs : pollMs)
        lookTimer.unref()
        // The first read is not waited for here: a retry or a change of settings is not held behind it.
        void readSoon()
      } catch (error) {
        open.close()
        if (!gone()) {
          const { host, port, password } = parts
          failed(mailFailure(error, { half: 'reading', host, port, secret: password }).words.replace(/\.$/, ''))
        }
      }
    })().finally(() => {
      connecting = null
      if (connectAgain) {
        connectAgain = false
        void connect()
      }
    })
    return connecting
  }

  return {
    start: () => void connect(),
    /** The settings changed: the link is made again with the new ones (or closed). */
    settingsChanged: () => {
      failures = 0
      void connect()
    },
    link: (): MailboxLink => link,
    test: testMailbox,
    stop() {
      stopped = true
      generation++
      clearTimeout(retryTimer)
      clearInterval(lookTimer)
      client?.close()
      client = null
      void reader.close()
    },
  }
}

export type MailboxWatch = ReturnType<typeof watchMailbox>
