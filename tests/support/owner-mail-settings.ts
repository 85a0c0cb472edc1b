import type { OwnerMailSettings } from '#app/owner-mail/owner-mail-sender.server'

/** The first retry's wait the site uses by default (NOTIFY_RETRY_SECONDS). */
export const retryBaseMs = 30_000

/** The owner's mail through a server that is not there: nothing listens on port 1, so every mail is refused at once. */
export const unreachableOwnerMail: OwnerMailSettings = {
  smtpUrl: 'smtp://127.0.0.1:1',
  to: ['owner@farm.example'],
  from: 'owner@farm.example',
  fromName: 'Bramble Hill Farm',
  digestAfter: 3,
  digestWindowMs: 600_000,
  publicUrl: null,
  timeZone: 'UTC',
}
