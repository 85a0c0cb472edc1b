import { randomBytes } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { createSmtpTransport } from '#app/delivery/smtp-transport.server'
import { serverWords } from '#app/delivery/smtp-refusals'
import { jsonError } from '#app/http/json.server'
import type { OwnerPass } from '#app/owner/owner-access.server'
import { requireOwner } from '#app/owner/require-owner.server'
import { postSigned } from '#app/webhook/webhook.server'
import { sectionOf, type FieldState } from './fields'
import type { SettingsChange, SettingsRefusal } from './settings.server'

type Context = Pick<AppLoadContext, 'owner' | 'siteNames' | 'settings' | 'limits' | 'farm'>

export const cannotSetUp =
  'To set the site up from here, set OWNER_PASSWORD: the settings hold the mail server’s password, so only the signed-in owner may see or change them.'

/**
 * The guard of the settings, said once for the page and the API: only a signed-in owner, so only
 * when OWNER_PASSWORD is set (an open inbox's 403 says what to set); then the owner guard (421,
 * 401 or the sign-in page).
 */
export async function requireSettingsOwner(
  request: Request,
  context: Context,
  guard: { as: 'page' } | { as: 'api'; to: string },
): Promise<OwnerPass> {
  if (!context.owner.required) throw jsonError(403, cannotSetUp)
  return requireOwner(request, context, guard)
}

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
const withoutSecret = (words: string, secret: string) => (secret ? words.split(secret).join('•••') : words)

/** The values of the mail section's form, over what is stored for what was left alone. */
function mailOfForm(form: FormData, context: Context) {
  const shown = context.settings.view()
  const valueOf = (key: string) => {
    const sent = form.get(key)
    if (typeof sent === 'string' && (sent !== '' || key !== 'SMTP_PASSWORD')) return sent.trim()
    if (key === 'SMTP_PASSWORD') return context.settings.secret('SMTP_PASSWORD')
    return shown.find((state) => state.key === key)?.value ?? ''
  }
  const parts = Object.fromEntries(
    ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USER', 'SMTP_PASSWORD'].map((key) => [key, valueOf(key)]),
  )
  const to = valueOf('NOTIFY_EMAIL')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  return { parts, to, from: valueOf('NOTIFY_FROM') || to[0] || '' }
}

export type TestAnswer = { ok: true; said: string } | { ok: false; field: string; error: string }

/** At most this many tests a minute per person: each reaches another server. */
const testsAtOnce = (context: Context, who: OwnerPass) => context.limits.replies.take(`tests-${who.who.id}`).ok

/**
 * 'Send a test mail': the values on the form, before they are saved (a password left empty is the
 * stored one), tried by sending one mail to the owner's own addresses. A failure is the mail
 * server's own words, never the password.
 */
export async function sendTestMail(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'SMTP_HOST', error: 'Too many tests: wait a minute.' }
  const { parts, to, from } = mailOfForm(form, context)
  // The form's values are checked as the settings would check them, so a test never reaches an odd address.
  const checked = context.settings.preview(
    Object.fromEntries(
      Object.entries({ ...parts, NOTIFY_EMAIL: to.join(', '), NOTIFY_FROM: from }).filter(
        ([key]) => !context.settings.view().find((state) => state.key === key)?.lockedBy,
      ),
    ),
  )
  if (!checked.ok) {
    if (checked.refusal.kind === 'fields') {
      const [field, error] = Object.entries(checked.refusal.fields)[0]!
      return { ok: false, field, error }
    }
    return { ok: false, field: 'SMTP_HOST', error: checked.refusal.error }
  }
  const { notify } = checked.config
  if (!notify) return { ok: false, field: 'SMTP_HOST', error: 'Fill in the mail server and your address first.' }
  const transport = createSmtpTransport(() => notify.smtpUrl)
  try {
    await transport.send({
      from: notify.from,
      to: notify.to,
      subject: `A test mail from ${context.farm.name}`,
      text: `This mail shows that ${context.farm.name}'s site can send mail through ${parts.SMTP_HOST || 'its mail server'}.\n\nNothing else is needed: leads, your answers and updates go out the same way.`,
    })
    return { ok: true, said: `Sent a test mail to ${notify.to.join(', ')}. The mail server took it.` }
  } catch (error) {
    const words = withoutSecret(serverWords(error), parts.SMTP_PASSWORD ?? '')
    const field = /auth|login|535|534|530/i.test(words) ? 'SMTP_PASSWORD' : 'SMTP_HOST'
    return { ok: false, field, error: `The mail server said: ${words}` }
  } finally {
    transport.close()
  }
}

/** Whether the mail server of these settings can be reached and signed in to: for turning updates on. */
async function mailServerAnswers(smtpUrl: string): Promise<string | null> {
  const transport = createSmtpTransport(() => smtpUrl)
  try {
    await transport.verify()
    return null
  } catch (error) {
    const password = URL.canParse(smtpUrl) ? decodeURIComponent(new URL(smtpUrl).password) : ''
    return withoutSecret(serverWords(error), password)
  } finally {
    transport.close()
  }
}

/** 'Send a test post': the webhook's address and secret on the form (or the stored secret), one signed sample lead. */
export async function sendTestPost(form: FormData, context: Context, who: OwnerPass): Promise<TestAnswer> {
  if (!testsAtOnce(context, who)) return { ok: false, field: 'WEBHOOK_URL', error: 'Too many tests: wait a minute.' }
  const sent = (key: string) => {
    const value = form.get(key)
    return typeof value === 'string' ? value.trim() : ''
  }
  const url = sent('WEBHOOK_URL') || (context.settings.view().find((state) => state.key === 'WEBHOOK_URL')?.value ?? '')
  const secret = sent('WEBHOOK_SECRET') || context.settings.secret('WEBHOOK_SECRET')
  const checked = context.settings.preview(
    context.settings.view().find((state) => state.key === 'WEBHOOK_URL')?.lockedBy
      ? {}
      : { WEBHOOK_URL: url, WEBHOOK_SECRET: secret },
  )
  if (!checked.ok) {
    if (checked.refusal.kind === 'fields') {
      const [field, error] = Object.entries(checked.refusal.fields)[0]!
      return { ok: false, field, error }
    }
    return { ok: false, field: 'WEBHOOK_URL', error: checked.refusal.error }
  }
  const { webhook } = checked.config
  if (!webhook) return { ok: false, field: 'WEBHOOK_URL', error: 'Fill in the webhook’s address and secret first.' }
  const at = Date.now()
  const body = JSON.stringify({
    type: 'lead.test',
    timestamp: new Date(at).toISOString(),
    data: { test: true, farm: context.farm.name },
  })
  const failure = await postSigned(webhook, `msg_${randomBytes(16).toString('base64url')}`, body, at)
  return failure === null
    ? { ok: true, said: 'Posted a signed test to the webhook. It answered 2xx.' }
    : { ok: false, field: 'WEBHOOK_URL', error: failure }
}

/**
 * The one way a change is made, from the page and the API alike: checked whole as readConfig
 * checks it, and turning updates on also needs mail that works and an https PUBLIC_URL (links in
 * updates are how people leave them). Nothing is stored unless all of it holds.
 */
export async function applyChange(
  change: SettingsChange,
  context: Context,
): Promise<{ ok: true } | { ok: false; refusal: SettingsRefusal }> {
  const checked = context.settings.preview(change)
  if (!checked.ok) return checked
  const next = checked.config
  if (next.updates && !context.settings.config.updates) {
    if (!next.updates.publicUrl.startsWith('https://')) {
      return {
        ok: false,
        refusal: {
          kind: 'fields',
          fields: {
            UPDATES:
              'Updates need the site’s public address to start with https://: mail programs offer one-click unsubscribe only for https links.',
          },
        },
      }
    }
    const problem = await mailServerAnswers(next.notify!.smtpUrl)
    if (problem) {
      return {
        ok: false,
        refusal: {
          kind: 'fields',
          fields: { UPDATES: `Updates go out by mail, and the mail server said: ${problem}` },
        },
      }
    }
  }
  return context.settings.change(change)
}
