import { utc } from '#app/clock/farm-clock'
import type { Config } from './config'

type Now = () => Config

/** An invitation's mail: the owner's mail server, and the farm's name to say whom it is from. */
export const invitationMailSettings = (now: Now) => () => {
  const { notify, farmName, farmTimeZone } = now()
  return notify ? { ...notify, fromName: notify.fromName ?? farmName, farmName, timeZone: farmTimeZone ?? utc } : null
}

/** The owner's lead mail: to each person of the team who wants it (the first owner at NOTIFY_EMAIL). */
export const ownerMailSettings = (now: Now, team: { leadMailTo: (fallback: string[]) => string[] }) => () => {
  const { notify, farmName, farmTimeZone } = now()
  const to = notify ? team.leadMailTo(notify.to) : []
  // From the farm by name, as every mail is, unless NOTIFY_FROM names another.
  return notify && to.length > 0
    ? { ...notify, fromName: notify.fromName ?? farmName, to, timeZone: farmTimeZone ?? utc }
    : null
}

/** An update's mails: only with mail and updates on; from the farm by name unless NOTIFY_FROM names another. */
export const updateMailSettings = (now: Now) => () => {
  const { notify, updates: on, farmName, farmTimeZone } = now()
  return notify && on
    ? {
        smtpUrl: notify.smtpUrl,
        from: notify.from,
        fromName: notify.fromName ?? farmName,
        owner: notify.to[0]!,
        farmName,
        siteUrl: on.publicUrl,
        perMinute: on.perMinute,
        timeZone: farmTimeZone ?? utc,
      }
    : null
}
