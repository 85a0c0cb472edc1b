import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { serverWords } from '#app/delivery/smtp-refusals.server'
import type { OwnerPass } from '#app/owner/owner-access.server'
import { notText } from '#app/http/form-text.server'
import { sectionOf, type FieldState } from './fields'
import { decodedPart } from './servers-in-parts'
import type { SettingsChange } from './settings-change'
import type { AskedChange, SettingsRefusal } from './settings.server'

type Context = Pick<
  AppLoadContext,
  'owner' | 'siteNames' | 'settings' | 'limits' | 'farm' | 'sendOnce' | 'mailbox' | 'offsite'
>

/**
 * A section's form as a change: only what differs from what is shown (so a default left alone
 * stays the default), never a locked field, and a secret only when something was typed in it.
 */
export function changeOfForm(form: FormData, sectionId: string, shown: FieldState[]): SettingsChange | null {
  const section = sectionOf(sectionId)
  if (!section) return null
  const change: SettingsChange = {}
  for (const field of section.fields) {
    const now = shown.find((state) => state.key === field.key)!
    if (now.lockedBy) continue
    const sent = form.get(field.key)
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

/** A message's words with the secret it may hold cut out, whatever the server chose to repeat. */
function withoutSecret(words: string, secret: string) {
  if (!secret) return words
  return [secret, encodeURIComponent(secret)].reduce((said, form) => said.split(form).join('•••'), words)
}

/** The password in an smtp:// address, as the server gets it. */
const passwordOf = (smtpUrl: string) => (URL.canParse(smtpUrl) ? decodedPart(new URL(smtpUrl).password) : '')

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

/**
 * 'Send a test mail': the values on the form, before they are saved (a password left empty is the
 * stored one, for the server it was set for only), tried by sending one mail to the owner's own
 * addresses. A failure is the mail server's own words, never the password.
 */
export async function sendTestMail(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'SMTP_HOST', error: 'Too many tests: wait a minute.' }
  const tried = triedConfig(form, 'mail', context, 'SMTP_HOST')
  if (!tried.ok) return tried
  const { notify } = tried.config
  if (!notify) return { ok: false, field: 'SMTP_HOST', error: 'Fill in the mail server and your address first.' }
  const host = URL.canParse(notify.smtpUrl) ? new URL(notify.smtpUrl).hostname : 'its mail server'
  try {
    await context.sendOnce.mail(notify.smtpUrl, {
      from: notify.from,
      to: notify.to,
      subject: `A test mail from ${context.farm.name}`,
      text: `This mail shows that ${context.farm.name}'s site can send mail through ${host}.\n\nNothing else is needed: leads, your answers and updates go out the same way.`,
    })
    return { ok: true, said: `Sent a test mail to ${notify.to.join(', ')}. The mail server took it.` }
  } catch (error) {
    const words = withoutSecret(serverWords(error), passwordOf(notify.smtpUrl))
    const field = /auth|login|535|534|530/i.test(words) ? 'SMTP_PASSWORD' : 'SMTP_HOST'
    return { ok: false, field, error: `The mail server said: ${words}` }
  }
}

/**
 * 'Test the mailbox': the values on the form (a password left empty is the stored one, for its own
 * server only) tried by signing in and opening the folder, read-only: nothing in it is read or
 * changed. A failure is the server's own words, never the password.
 */
export async function testMailbox(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'IMAP_HOST', error: 'Too many tests: wait a minute.' }
  const tried = triedConfig(form, 'mailbox', context, 'IMAP_HOST')
  if (!tried.ok) return tried
  const { mailbox } = tried.config
  if (!mailbox)
    return { ok: false, field: 'IMAP_HOST', error: 'Fill in the mailbox server, user name and password first.' }
  const failure = await context.mailbox.test(mailbox.url)
  if (failure === null) {
    const url = new URL(mailbox.url)
    return {
      ok: true,
      said: `Signed in to ${url.hostname} and opened ${decodedPart(url.pathname.slice(1)) || 'INBOX'}. Nothing in it was read or changed.`,
    }
  }
  const field = /auth|login|credential|password/i.test(failure) ? 'IMAP_PASSWORD' : 'IMAP_HOST'
  return { ok: false, field, error: `The mailbox server said: ${failure}` }
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
  return { ok: false, field: bucketFields[failure.kind], error: withoutSecret(failure.message, bucket.secret) }
}

/** Whether the mail server of these settings can be reached and signed in to: for updates. */
async function mailServerAnswers(smtpUrl: string, context: Context): Promise<string | null> {
  try {
    await context.sendOnce.verify(smtpUrl)
    return null
  } catch (error) {
    return withoutSecret(serverWords(error), passwordOf(smtpUrl))
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
