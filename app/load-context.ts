import type { CsvExports } from '#app/inbox/csv-export.server'
import type { Inbox } from '#app/inbox/inbox.server'
import type { RateLimit } from '#app/limits/rate-limit.server'
import type { Log } from '#app/log'
import type { OwnerAccess } from '#app/owner/owner-access.server'
import type { Passkeys } from '#app/owner/passkeys.server'
import type { ActivityLog } from '#app/team/activity.server'
import type { FarmPage } from '#app/farm-page/farm-page.server'
import type { Team } from '#app/team/team.server'
import type { InsightsService } from '#app/insights/insights.server'
import type { Language } from '#app/language/languages'
import type { SiteNames } from '#app/owner/site-names.server'
import type { Replies } from '#app/replies/replies.server'
import type { SubmissionsService } from '#app/submissions/service.server'
import type { SpamTraps } from '#app/submissions/spam-traps.server'
import type { UpdatesDesk } from '#app/updates/update-requests.server'
import type { OwnerPhones } from '#app/push/owner-phones.server'
import type { Backups } from '#app/lifecycle/backups.server'
import type { People } from '#app/lifecycle/people.server'
import type { Offsite } from '#app/lifecycle/data-lifecycle.server'
import type { Dkim } from '#app/delivery/dkim.server'
import type { DeliveryEngine } from '#app/delivery/engine.server'
import type { MailboxWatch } from '#app/mail-back/mailbox.server'
import type { ResolveTxt } from '#app/settings/mail-dns.server'
import type { Settings } from '#app/settings/settings.server'
import type { MailProvider } from '#app/settings/mail-providers'
import type { BucketSettings } from '#app/lifecycle/bucket.server'
import type { Subscribers } from '#app/updates/subscribers.server'
import type { Photos } from '#app/photos/photos.server'
import type { WeekAtTheFarm } from '#app/this-week/week-at-the-farm.server'
import type { HomePage } from '#app/home/home-page.server'
import type { Orders } from '#app/orders/orders.server'
import type { VisitorOrders } from '#app/orders/visitor-orders.server'
import type { OrderConfirming } from '#app/orders/order-confirming.server'

/**
 * What app/ reads of the config a change would make (server/config.ts has the whole). Written by
 * hand, not made from the declarations: these are readConfig's readings of settings together
 * (decision 034).
 */
export interface SettingsConfig {
  notify: { smtpUrl: string; to: string[]; from: string } | null
  updates: { publicUrl: string } | null
  webhook: { url: string; key: Buffer } | null
  dkim: { selector: string }
  /** PUBLIC_URL as `siteUrl`: every link in a mail starts with it. */
  push: { siteUrl: string | null }
  mailbox: { url: string } | null
  activityDays: number
  backups: { bucket: BucketSettings | null }
  /** FARM_TIME_ZONE: null while none is chosen (the site's clock is UTC until then). */
  farmTimeZone: string | null
  /** Tests only: their own mail server, offered as a provider (TEST_MAIL_PROVIDER). */
  testMailProvider: MailProvider | null
}

export interface Farm {
  name: string
  product: string
  /** The farm's clock, an IANA name: every time the owner is shown is on it (UTC until one is chosen). */
  timeZone: string
  /** FARM_LANGUAGES: the languages visitors read the home page in, the farm's own first (at `/`). */
  languages: Language[]
}

/** What the server builds once (server/services.ts) and hands every loader and action. */
declare module '@remix-run/node' {
  interface AppLoadContext {
    farm: Farm
    /** What the home page shows, read once per request: its loader and its kept copy's key read the same. */
    homePage: () => HomePage
    /** Receives what visitors send. */
    submissions: SubmissionsService
    /** What the owner reads and changes. */
    inbox: Inbox
    /** The inbox as CSV, a few downloads at once per owner. */
    csvExports: CsvExports
    spamTraps: SpamTraps
    owner: OwnerAccess
    /** The farm's people: invitations, roles, their own settings, and the set-up of the first owner. */
    team: Team
    /** What was done with the data and the team, for owners to read. */
    activity: Pick<ActivityLog, 'record' | 'page'>
    /** The home page's words: the draft, the published and the one before. */
    farmPage: FarmPage
    /** The season at a glance: leads, answers and the updates, week by week. */
    insights: InsightsService
    /** The confirmed orders: the pick-ups of a day or a week, marked collected or not. */
    orders: Orders
    passkeys: Passkeys
    /** Which names may open an open inbox (DNS rebinding). */
    siteNames: SiteNames
    /** The owner's replies, saved replies and the acknowledgement's text. */
    replies: Replies
    /** Why mail cannot be sent from the inbox (no OWNER_PASSWORD, no SMTP), or null when it can. */
    cannotReply: string | null
    /** Null unless UPDATES=true: the subscribers, the updates, their mail. */
    updates: UpdatesDesk | null
    /** This week's list, and who asked to be told when a product is ready. */
    week: WeekAtTheFarm
    /** Orders read from leads, drafted and confirmed from their cards. */
    orderConfirming: OrderConfirming
    /** Who is subscribed, asked or left, whether updates are on or not: their links keep working. */
    subscribers: Subscribers
    /** The farm's settings: what the page shows and changes, over the environment, which wins. */
    settings: Settings<SettingsConfig>
    /** The farm's DKIM key: every mail is signed with it. */
    dkim: Dkim
    /** One mail or post now, through the delivery engine's transports: the settings page's tests. */
    sendOnce: DeliveryEngine['once']
    /** TXT lookups for the mail set-up's checks, through DNS_SERVERS when set. */
    resolveTxt: ResolveTxt
    /** The farm's mailbox, read for answers, bounces and complaints: how its link is, and a try of other settings. */
    mailbox: Pick<MailboxWatch, 'link' | 'test'>
    /** What is set up of what makes the site useful: mail, a phone, updates. */
    setup: () => { mail: boolean; phone: boolean; updates: boolean }
    /** Why the owner cannot send updates (UPDATES off, no OWNER_PASSWORD), or null when they can. */
    cannotSendUpdates: string | null
    /** Null unless the owner's phones may be told of leads (OWNER_PASSWORD set). */
    push: OwnerPhones | null
    /** Why no phone can be notified (no OWNER_PASSWORD, no VAPID subject), or null when one can. */
    cannotPush: string | null
    /** The database's backups, and fresh copies for the owner to download. */
    backups: Pick<Backups, 'download'>
    /** The backups' copies in the owner's bucket: how it goes, 'Test the bucket', the key shown once. */
    offsite: Offsite
    /** The farm's photos on the home page: shown, added, described, ordered, removed. */
    photos: Photos
    /** A visitor's order by its signed link: shown, and cancelled until its cut-off. */
    visitorOrders: VisitorOrders
    /** One person's data: to export, or to forget. */
    people: Pick<People, 'exportOf' | 'forget'>
    /** Attempts per visitor (per owner session for replies), counted where the action runs so every path and method to it counts. */
    limits: { submissions: RateLimit; signIns: RateLimit; replies: RateLimit; joins: RateLimit }
    /** The visitor's address (from X-Forwarded-For only behind TRUST_PROXY). */
    clientAddress: string
    /** The nonce this response's Content-Security-Policy allows scripts by. */
    cspNonce: string
    log: Log
  }
}
