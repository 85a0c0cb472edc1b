import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { serverWords } from '#app/delivery/smtp-refusals.server'
import type { OwnerPass } from '#app/owner/owner-access.server'
import { notText } from '#app/http/form-text.server'
import type { SettingsConfig } from '#app/load-context'
import { fields, sectionOf, type Field, type FieldState } from './fields'
import {
  cutOut,
  folderFailure,
  mailFailure,
  type FailedPart,
  type MailFailure,
} from '#app/delivery/mail-failures.server'
import { providerOf, type Half, type MailProvider } from './mail-providers'
import { decodedPart, serverOfPart, servers } from './servers-in-parts'
import type { TestLine } from './settings-section'
import type { SettingsChange } from './settings-change'
import type { AskedChange, SettingsRefusal } from './settings.server'

type Context = Pick<
  AppLoadContext,
  'owner' | 'siteNames' | 'settings' | 'limits' | 'farm' | 'sendOnce' | 'mailbox' | 'offsite'
>

/** The field shown for this one: the one it follows (sameAs), unless the environment locks that one. */
function followed(field: Field, shown: FieldState[]) {
  const leader = field.sameAs ? shown.find((state) => state.key === field.sameAs) : undefined
  return leader && !leader.lockedBy ? leader.key : null
}

/**
 * What a field's value is sent as: its own, or that of the field it follows, for a server whose
 * host is on the form (an account's password is kept for no server the farm does not use).
 */
function sentFor(form: FormData, field: Field, shown: FieldState[]) {
  const leader = followed(field, shown)
  if (!leader) return form.get(field.key)
  return form.get(serverOfPart(field.key)?.host ?? '') ? form.get(leader) : null
}

/**
 * Removing a secret removes those that follow it on the page too (the account's one password),
 * but not from under a reading server that signs in with it: that is emptied first.
 */
export function removalOf(key: string, shown: FieldState[]): SettingsChange | { problem: string } {
  const valueOf = (each: string) => shown.find((state) => state.key === each)
  const followers = fields.filter((field) => followed(field, shown) === key && !valueOf(field.key)?.lockedBy)
  if (followers.some((field) => valueOf(serverOfPart(field.key)?.host ?? '')?.value)) {
    return { problem: 'Reading mail signs in with it too: empty the reading server first, then remove it.' }
  }
  return Object.fromEntries([key, ...followers.map((field) => field.key)].map((each) => [each, null]))
}

/**
 * A section's form as a change: only what differs from what is shown (so a default left alone
 * stays the default), never a locked field, and a secret only when something was typed in it.
 * The mailbox's one user name and password set both halves' (SMTP_USER and IMAP_USER…).
 */
export function changeOfForm(form: FormData, sectionId: string, shown: FieldState[]): SettingsChange | null {
  const section = sectionOf(sectionId)
  if (!section) return null
  const change: SettingsChange = {}
  for (const field of section.fields) {
    const now = shown.find((state) => state.key === field.key)!
    if (now.lockedBy) continue
    const sent = sentFor(form, field, shown)
    if (sent === null) continue
    if (typeof sent !== 'string') return null
    if (field.kind === 'secret') {
      if (sent !== '') change[field.key] = sent
      continue
    }
    const value = field.kind === 'long-text' ? sent.replace(/\r\n?/g, '\n').trim() : sent.trim()
    if (value !== (now.value ?? '')) change[field.key] = value === '' ? null : value
  }
  return change
}

/** The password in an smtp:// or imap:// address, as the server gets it. */
const passwordOf = (url: string) => (URL.canParse(url) ? decodedPart(new URL(url).password) : '')

export type TestAnswer = { ok: true; said: string } | { ok: false; field: string; error: string }

/** At most this many tests a minute per person (the replies' share): each reaches another server. */
const testsAtOnce = (context: Context, who: OwnerPass) => context.limits.replies.take(`tests-${who.who.id}`).ok

/** The config a test's values make, or the first refused field and its words. */
function triedConfig(form: FormData, sectionId: string, context: Context, firstField: string) {
  // What differs from what is shown, and a secret only when typed: as Save would store it.
  const tried = changeOfForm(form, sectionId, context.settings.view())
  if (!tried) return { ok: false as const, field: firstField, error: notText }
  const checked = context.settings.preview(tried)
  if (checked.ok) return { ok: true as const, config: checked.config }
  if (checked.refusal.kind === 'request') return { ok: false as const, field: firstField, error: checked.refusal.error }
  const [field, error] = Object.entries(checked.refusal.fields)[0]!
  return { ok: false as const, field, error }
}

/** Which field each part of a half is. */
const fieldsOfHalf: Record<Half, Record<FailedPart, string>> = {
  sending: {
    host: 'SMTP_HOST',
    port: 'SMTP_PORT',
    security: 'SMTP_SECURITY',
    password: 'SMTP_PASSWORD',
    folder: 'SMTP_HOST',
    from: 'NOTIFY_FROM',
  },
  reading: {
    host: 'IMAP_HOST',
    port: 'IMAP_PORT',
    security: 'IMAP_SECURITY',
    password: 'IMAP_PASSWORD',
    folder: 'IMAP_FOLDER',
    from: 'IMAP_HOST',
  },
}

const failedLine = (half: Half, failure: MailFailure): TestLine => ({
  half,
  ok: false,
  said: failure.words,
  field: fieldsOfHalf[half][failure.part],
  link: failure.link,
})

/** Sends one test mail to the owner's own addresses through the server of these settings. */
async function trySending(notify: NonNullable<SettingsConfig['notify']>, context: Context, providers: MailProvider[]) {
  const url = new URL(notify.smtpUrl)
  const port = Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587)
  try {
    await context.sendOnce.mail(notify.smtpUrl, {
      from: notify.from,
      to: notify.to,
      subject: `A test mail from ${context.farm.name}`,
      text: `This mail shows that ${context.farm.name}'s site can send mail through ${url.hostname}.\n\nNothing else is needed: leads, your answers and updates go out the same way.`,
    })
    return {
      half: 'sending',
      ok: true,
      said: `Sent a test mail to ${notify.to.join(', ')}. The mail server took it.`,
    } as const
  } catch (error) {
    const provider = providerOf(providers, { sending: url.hostname })
    const secret = passwordOf(notify.smtpUrl)
    return failedLine('sending', mailFailure(error, { half: 'sending', host: url.hostname, port, provider, secret }))
  }
}

/** Signs in to the mailbox of these settings and opens its folder, read-only. */
async function tryReading(mailboxUrl: string, context: Context, providers: MailProvider[]): Promise<TestLine> {
  const parts = servers[1]!.partsOf(new URL(mailboxUrl))
  const [host, folder, password] = [parts.IMAP_HOST ?? '', parts.IMAP_FOLDER ?? 'INBOX', passwordOf(mailboxUrl)]
  const port = Number(parts.IMAP_PORT)
  const failed = await context.mailbox.test(mailboxUrl)
  if (failed === null) {
    return {
      half: 'reading',
      ok: true,
      said: `Signed in to ${host} and opened ${folder}. Nothing in it was read or changed.`,
    }
  }
  if (failed.at === 'folder') return failedLine('reading', folderFailure(folder))
  const provider = providerOf(providers, { reading: host })
  return failedLine('reading', mailFailure(failed.error, { half: 'reading', host, port, provider, secret: password }))
}

/** What the form (or, where it is locked, the environment) says of a field. */
function valueOn(form: FormData, key: string, context: Context) {
  const state = context.settings.view().find((each) => each.key === key)
  const sent = form.get(key)
  return state?.lockedBy || typeof sent !== 'string' ? (state?.value ?? '') : sent.trim()
}

/**
 * 'Send a test mail' on the mail page: the settings as they are, by one mail to the owner's own
 * addresses. A failure is said in words, never the password.
 */
export async function sendTestMail(context: Context, who: OwnerPass, providers: MailProvider[]): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'SMTP_HOST', error: 'Too many tests: wait a minute.' }
  const { notify } = context.settings.config
  if (!notify) return { ok: false, field: 'SMTP_HOST', error: 'Fill in the mail server and your address first.' }
  const line = await trySending(notify, context, providers)
  return line.ok ? { ok: true, said: line.said } : { ok: false, field: line.field!, error: line.said }
}

/**
 * 'Test sending and reading': the values on the mail form, before they are saved (a password left
 * empty is the stored one, for the server it was set for only), tried both ways at once: one mail
 * to the owner's own addresses, and signing in to the mailbox and opening its folder, read-only.
 * Each half says in words whether it worked, and what to check when not; never the password.
 */
export async function testMailbox(
  form: FormData,
  context: Context,
  who: OwnerPass,
  providers: MailProvider[],
): Promise<{ ok: false; field: string; error: string } | { ok: true; lines: TestLine[] }> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'SMTP_HOST', error: 'Too many tests: wait a minute.' }
  const tried = triedConfig(form, 'mail', context, 'SMTP_HOST')
  if (!tried.ok) return tried
  const { notify, mailbox } = tried.config
  const sending = Boolean(valueOn(form, 'SMTP_HOST', context))
  if (!sending && !mailbox) {
    return { ok: false, field: 'SMTP_HOST', error: 'Fill in the servers first: choose your provider, or type them in.' }
  }
  const lines = await Promise.all([
    notify
      ? trySending(notify, context, providers)
      : sending
        ? ({
            half: 'sending',
            ok: false,
            said: 'Fill in your address first: the test mail goes to it.',
            field: 'NOTIFY_EMAIL',
          } as const)
        : ({ half: 'sending', ok: null, said: 'No server to send through: the site sends no mail.' } as const),
    mailbox
      ? tryReading(mailbox.url, context, providers)
      : ({
          half: 'reading',
          ok: null,
          said: 'No server to read: answers and bounces stay in your mail program.',
        } as const),
  ])
  return { ok: true, lines }
}

/** Which field a bucket's refusal is about. */
const bucketFields = {
  unreachable: 'BACKUP_BUCKET_ENDPOINT',
  'refused-key': 'BACKUP_BUCKET_SECRET',
  full: 'BACKUP_BUCKET',
  'no-bucket': 'BACKUP_BUCKET',
  other: 'BACKUP_BUCKET_ENDPOINT',
} as const

/**
 * 'Test the bucket': the values on the form (a secret left empty is the stored one, for its own
 * address and key ID only) tried by writing a small test file, reading it back and removing it.
 * A failure is said in plain words, never the secret.
 */
export async function testBucket(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  const first = 'BACKUP_BUCKET_ENDPOINT'
  if (!testsAtOnce(context, who)) return { ok: false, field: first, error: 'Too many tests: wait a minute.' }
  const tried = triedConfig(form, 'backups', context, first)
  if (!tried.ok) return tried
  const { bucket } = tried.config.backups
  if (!bucket) return { ok: false, field: first, error: 'Fill in the bucket’s address, name, key ID and secret first.' }
  const failure = await context.offsite.test(bucket)
  if (failure === null) return { ok: true, said: 'A test file was written to the bucket, read back and removed.' }
  return { ok: false, field: bucketFields[failure.kind], error: cutOut(failure.message, bucket.secret) }
}

/** Whether the mail server of these settings can be reached and signed in to: for updates. */
async function mailServerAnswers(smtpUrl: string, context: Context): Promise<string | null> {
  try {
    await context.sendOnce.verify(smtpUrl)
    return null
  } catch (error) {
    return cutOut(serverWords(error), passwordOf(smtpUrl))
  }
}

/** 'Send a test post': the webhook's address and secret on the form (or the stored secret, for its own address), one signed sample lead. */
export async function sendTestPost(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'WEBHOOK_URL', error: 'Too many tests: wait a minute.' }
  const tried = triedConfig(form, 'webhook', context, 'WEBHOOK_URL')
  if (!tried.ok) return tried
  const { webhook } = tried.config
  if (!webhook) return { ok: false, field: 'WEBHOOK_URL', error: 'Fill in the webhook’s address and secret first.' }
  const at = Date.now()
  const body = JSON.stringify({
    type: 'lead.test',
    timestamp: new Date(at).toISOString(),
    data: { test: true, farm: context.farm.name },
  })
  const failure = await context.sendOnce.post(webhook, `msg_${randomBytes(16).toString('base64url')}`, body, at)
  return failure === null
    ? { ok: true, said: 'Posted a signed test to the webhook. It answered 2xx.' }
    : { ok: false, field: 'WEBHOOK_URL', error: failure }
}

/**
 * The one way a change is made, from the page and the API alike: checked whole as readConfig
 * checks it (updates need an https PUBLIC_URL there), and updates from the page also need mail
 * that works, whichever change would break that. Nothing is stored
 * unless all of it holds; the checks run in turn with any other change, on what it would make.
 */
export function applyChange(
  change: AskedChange,
  context: Context,
): Promise<{ ok: true } | { ok: false; refusal: SettingsRefusal }> {
  const updatesLocked = Boolean(context.settings.view().find((state) => state.key === 'UPDATES')?.lockedBy)
  return context.settings.change(change, async (next, made): Promise<SettingsRefusal | null> => {
    const touches = Object.keys(made).some(
      (key) => ['UPDATES', 'PUBLIC_URL', 'NOTIFY_EMAIL', 'NOTIFY_FROM'].includes(key) || key.startsWith('SMTP_'),
    )
    if (!next.updates || !touches || updatesLocked) return null
    const problem = await mailServerAnswers(next.notify!.smtpUrl, context)
    return problem
      ? { kind: 'fields', fields: { UPDATES: `Updates go out by mail, and the mail server said: ${problem}` } }
      : null
  })
}
