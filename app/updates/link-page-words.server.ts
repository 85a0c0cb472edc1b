import { catalogs } from '#app/language/catalogs.server'
import { keptLanguage, type Language } from '#app/language/languages'
import type { LinkAnswer } from './update'
import type { LinkPageWords } from './link-page'

/**
 * The language a link's page speaks: the subscriber's; for a link that names no one (broken, or
 * a test mail's), the farm's first.
 */
const languageOf = (found: LinkAnswer | 'test', farmLanguage: Language) =>
  found !== 'test' && found.ok ? keptLanguage(found.language) : farmLanguage

function broken(language: Language, pageTitle: string, why: 'expired' | 'invalid'): LinkPageWords {
  const messages = catalogs[language]
  return {
    language,
    pageTitle,
    title: why === 'expired' ? messages.linkExpiredTitle() : messages.linkInvalidTitle(),
    text: why === 'expired' ? messages.linkExpiredText() : messages.linkInvalidText(),
    told: false,
    quote: null,
    button: null,
    after: null,
  }
}

/** The confirm page: the question and its one button, or that they are subscribed. */
export function confirmPageWords(
  found: LinkAnswer,
  { farm, farmLanguage, done, consent }: { farm: string; farmLanguage: Language; done: boolean; consent: string },
): LinkPageWords {
  const language = languageOf(found, farmLanguage)
  const messages = catalogs[language]
  const pageTitle = messages.updatesPageTitle()
  if (!found.ok) return broken(language, pageTitle, found.why)
  const plain = { language, pageTitle, quote: null, button: null, after: null }
  if (done || found.status === 'subscribed') {
    return {
      ...plain,
      title: messages.subscribedTitle(),
      text: messages.subscribedText({ email: found.email, farm }),
      told: true,
    }
  }
  return {
    ...plain,
    title: messages.confirmTitle({ farm }),
    text: messages.confirmQuestion({ farm, email: found.email }),
    told: false,
    quote: consent,
    button: { label: messages.confirmButton(), intent: null, quiet: false, before: null },
    after: messages.confirmNone(),
  }
}

/** The unsubscribe page: its one button, that they left (with a day's undo), or a test mail's link. */
export function unsubscribePageWords(
  found: LinkAnswer | 'test',
  { farm, farmLanguage, did }: { farm: string; farmLanguage: Language; did: 'unsubscribed' | 'undone' | null },
): LinkPageWords {
  const language = languageOf(found, farmLanguage)
  const messages = catalogs[language]
  const pageTitle = messages.unsubscribePageTitle()
  const plain = { language, pageTitle, quote: null, button: null, after: null }
  if (found === 'test') {
    return { ...plain, title: messages.testLinkTitle(), text: messages.testLinkText(), told: false }
  }
  if (!found.ok) return broken(language, pageTitle, found.why)
  const { email } = found
  if (found.status === 'subscribed') {
    const button = { label: messages.unsubscribeButton(), intent: 'unsubscribe', quiet: false, before: null }
    return did === 'undone'
      ? {
          ...plain,
          title: messages.resubscribedTitle(),
          text: messages.resubscribedText({ email, farm }),
          told: true,
          button,
        }
      : {
          ...plain,
          title: messages.unsubscribeTitle({ farm }),
          text: messages.unsubscribeText({ email, farm }),
          told: did !== null,
          button,
        }
  }
  return {
    ...plain,
    title: messages.unsubscribedTitle(),
    text: messages.unsubscribedText({ email, farm, refused: found.status === 'undeliverable' ? 'yes' : 'no' }),
    told: true,
    button: found.mayUndo
      ? { label: messages.undoButton(), intent: 'undo', quiet: true, before: messages.undoQuestion() }
      : null,
  }
}
