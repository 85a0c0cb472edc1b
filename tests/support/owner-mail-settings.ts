import type { OwnerMailSettings } from '#app/owner-mail/owner-mail-sender.server'

/** The owner's mail through a server that is not there: nothing listens on port 1, so every mail is refused at once. */
export const unreachableOwnerMail: OwnerMailSettings = {
  smtpUrl: 'smtp://127.0.0.1:1',
  to: ['owner@farm.example'],
  from: 'owner@farm.example',
  digestAfter: 3,
  digestWindowMs: 600_000,
  retryBaseMs: 30_000,
  publicUrl: null,
}
