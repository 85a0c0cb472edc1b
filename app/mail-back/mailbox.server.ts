import type { ImapFlow, ImapFlowOptions } from 'imapflow'
import type { Log } from '#app/log'
import type { MailBack } from './mail-back.server'
import { mostBytesPerMail } from './limits'
import { readBack, type ReadBack } from './read-back.server'

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

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })

/** How the link to the farm's mailbox is, in the owner's words. */
export function mailboxLinkWords(link: MailboxLink): string {
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
      return `Cannot read the farm’s mailbox: ${link.lastError ?? 'no reason given'}. Trying again${link.retryAt ? ` at ${when.format(new Date(link.retryAt))} UTC` : ''}.`
  }
}

/** Messages one round reads at most: more wait for the next round, which follows at once. */
export const mostMessagesPerRound = 200
// While IDLE tells of new mail, a look every while still catches what a dropped notice missed.
const safetyLookMs = 60_000
// A server without IDLE is asked this often.
const pollMs = 10_000
const firstRetryMs = 1_000
const longestRetryMs = 5 * 60_000

/** The parts of INBOUND_IMAP_URL, or why it cannot be used. */
export function mailboxOf(url: string): {
  host: string
  port: number
  secure: boolean
  user: string
  password: string
  folder: string
} {
  const parsed = new URL(url)
  if (parsed.protocol !== 'imaps:' && parsed.protocol !== 'imap:')
    throw new Error('must start with imaps:// or imap://')
  if (!parsed.hostname) throw new Error('must name the mail server, as imaps://user:password@imap.farm.example/INBOX')
  if (!parsed.username || !parsed.password)
    throw new Error('must hold the user name and password, as imaps://user:password@imap.farm.example/INBOX')
  const secure = parsed.protocol === 'imaps:'
  const folder = decodeURIComponent(parsed.pathname.slice(1)) || 'INBOX'
  if (/[\u0000-\u001f\u007f]/.test(folder)) throw new Error('must name a folder without control characters')
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    folder,
  }
}

/**
 * An IMAP client for the mailbox (imapflow, loaded with the first link: a site without a mailbox
 * never pays for it). On 143 the password goes only after STARTTLS, never in the clear.
 */
async function clientOf(parts: ReturnType<typeof mailboxOf>, options: Partial<ImapFlowOptions>): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow')
  return new ImapFlow({
    host: parts.host,
    port: parts.port,
    secure: parts.secure,
    doSTARTTLS: !parts.secure,
    auth: { user: parts.user, pass: parts.password },
    logger: false,
    greetingTimeout: 10_000,
    ...options,
  })
}

/** The words of a failure without the password, however it was spelled. */
function withoutSecret(error: unknown, password: string): string {
  const words =
    error instanceof Error ? ((error as { responseText?: string }).responseText ?? error.message) : String(error)
  const secrets = [password, encodeURIComponent(password)].filter((secret) => secret.length > 0)
  return secrets.reduce((text, secret) => text.split(secret).join('…'), words).slice(0, 500)
}

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
  log,
  now = () => new Date(),
}: {
  settings: () => MailboxSettings | null
  mailBack: MailBack
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

  function failed(error: unknown, password: string) {
    failures++
    const wait = Math.min(longestRetryMs, firstRetryMs * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4)
    link = {
      ...link,
      state: 'failing',
      idle: null,
      lastError: withoutSecret(error, password),
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

  /** One connection's reading: what is new, one read at a time; asked while reading, it reads once more after. */
  function reader(
    open: ImapFlow,
    at: { mailbox: string; folder: string; uidValidity: number },
    moveTo: string | null,
    password: string,
    mine: number,
  ) {
    let reading: Promise<void> | null = null
    let readAgain = false
    const current = () => mine === generation && !stopped

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
          if (size !== null && size > mostBytesPerMail) {
            log.info({ uid, bytes: size }, 'a message in the mailbox is over 1 MB: left for the owner')
            await mailBack.skip(here)
            continue
          }
          // Never more than the cap, even from a server that gave no size.
          const message = await open.fetchOne(
            String(uid),
            { source: { maxLength: mostBytesPerMail + 1 } },
            { uid: true },
          )
          const source = message ? message.source : undefined
          if (!source || source.length > mostBytesPerMail) {
            await mailBack.skip(here)
            continue
          }
          let read: ReadBack
          try {
            read = await readBack(source)
          } catch (error) {
            // A message the site cannot read is not the site's: the mark moves on, the mail stays.
            log.warn(
              { uid, err: error instanceof Error ? error.message : String(error) },
              'could not read a message of the mailbox; left as it is',
            )
            await mailBack.skip(here)
            continue
          }
          // What it did is kept with the mark: a failure here (the database busy, say) leaves the
          // mark where it was, and the message is read again with the next look.
          const outcome = await mailBack.take(read, source, here)
          if (outcome !== null && outcome !== 'not ours') handled.push(uid)
        }
        if (moveTo && handled.length > 0) {
          await open.messageMove(handled.join(','), moveTo, { uid: true }).catch((error: unknown) => {
            log.warn(
              { reason: withoutSecret(error, password), folder: moveTo },
              'could not move the messages read to their folder',
            )
          })
        }
        link = { ...link, lastReadAt: now().toISOString() }
        if (waiting.length > round.length) readAgain = true
      } finally {
        lock.release()
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
        // The folder handled messages go to is made once, if it is not there (an error says it is).
        if (current.moveTo && !gone()) await open.mailboxCreate(current.moveTo).catch(() => {})
        const opened = gone() ? null : await open.mailboxOpen(parts.folder, { readOnly: !current.moveTo })
        if (!opened || gone()) return void open.close()
        const uidValidity = Number(opened.uidValidity)
        const mark = mailBack.markOf(mailbox)
        if (!mark || mark.uidValidity !== uidValidity) {
          // The first read starts from now: what was in the mailbox before is the owner's. A new
          // UIDVALIDITY means the server numbered the folder again: what it held is not read twice.
          if (mark)
            log.warn(
              { mailbox: parts.folder },
              'the mailbox was numbered again (UIDVALIDITY): reading from its newest message on',
            )
          await mailBack.skip({ mailbox, uidValidity, uid: Math.max(0, Number(opened.uidNext) - 1) })
        }
        if (gone()) return void open.close()
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
        const readSoon = reader(
          open,
          { mailbox, folder: parts.folder, uidValidity },
          current.moveTo,
          parts.password,
          mine,
        )
        open.on('exists', () => void readSoon())
        open.on('close', () => {
          if (gone()) return
          client = null
          clearInterval(lookTimer)
          // A link that held a while earns a fresh start of the waits; one that drops at once does not.
          if (Date.now() - openedAt > longestRetryMs) failures = 0
          failed(new Error('the mail server closed the link'), parts.password)
        })
        // Without IDLE, the site looks every few seconds; with it, now and then in case a notice was missed.
        lookTimer = setInterval(() => void readSoon(), link.idle ? safetyLookMs : pollMs)
        lookTimer.unref()
        // The first read is not waited for here: a retry or a change of settings is not held behind it.
        void readSoon()
      } catch (error) {
        open.close()
        if (!gone()) failed(error, parts.password)
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
    /** Tries a mailbox's settings (the settings page's 'Test the mailbox'): null when it signs in and opens the folder. */
    async test(url: string): Promise<string | null> {
      const parts = mailboxOf(url)
      const open = await clientOf(parts, { connectionTimeout: 10_000, socketTimeout: 30_000, disableAutoIdle: true })
      open.on('error', () => {})
      try {
        await open.connect()
        await open.mailboxOpen(parts.folder, { readOnly: true })
        await open.logout()
        return null
      } catch (error) {
        open.close()
        return withoutSecret(error, parts.password)
      }
    },
    stop() {
      stopped = true
      generation++
      clearTimeout(retryTimer)
      clearInterval(lookTimer)
      client?.close()
      client = null
    },
  }
}

export type MailboxWatch = ReturnType<typeof watchMailbox>
