import { catalogs } from '#app/language/catalogs.server'
import { fullDate } from '#app/language/intl'
import { keptLanguage } from '#app/language/languages'
import type { SubscriberRow } from '#app/data/schema'
import type { UpdateFooter } from './update'

/**
 * An update's footer in its subscriber's language: who sent it, why they get it (the day they
 * said yes, on the farm's calendar), and how to leave. With no subscriber (a preview that reaches
 * no one), as a visitor who said yes; the owner's test says it is one (in English, the owner's).
 */
export function updateFooter(
  subscriber: Pick<SubscriberRow, 'addedBy' | 'subscribedAt' | 'language'> | 'test' | null,
  settings: { farmName: string; siteUrl: string; timeZone: string },
  unsubscribeUrl: string,
): UpdateFooter {
  const row = subscriber === 'test' ? null : subscriber
  const language = keptLanguage(row?.language ?? null)
  const messages = catalogs[language]
  const said = { farm: settings.farmName, site: settings.siteUrl }
  const since = row?.subscribedAt ?? null
  const date = since ? fullDate(language, since.getTime(), settings.timeZone) : null
  const why =
    subscriber === 'test'
      ? messages.updateForTest(said)
      : row?.addedBy === 'owner'
        ? date
          ? messages.updateAddedOn({ ...said, date })
          : messages.updateAdded(said)
        : date
          ? messages.updateSaidYesOn({ ...said, date })
          : messages.updateSaidYes(said)
  return {
    language,
    why,
    unsubscribeText: messages.updateUnsubscribeText({ link: unsubscribeUrl }),
    unsubscribeLink: messages.updateUnsubscribeLink(),
  }
}
