import type { ServerMessages } from '#app/language/compiled/messages'
import { noHours } from './opening-hours'
import type { PageWords } from './page-words'

/** The spec's own texts: a fresh site says exactly these. */
export const defaultWords: PageWords = {
  welcome: 'Welcome to',
  intro: 'Fill out the form to stay updated with our latest products and receive exclusive offers.',
  cards: [
    {
      title: '{product} Updates',
      text: 'Be first to hear what is ripe in the fields: seasonal produce, farm events and our sustainable farming practices.',
    },
    {
      title: 'Exclusive Offers',
      text: 'Early access to limited harvests and special discounts, only for the people on our list.',
    },
  ],
  story: '',
  hours: noHours,
  findUs: { address: '', directions: '', phone: '' },
}

/**
 * The owner's words, with the spec's own (a fresh site's, or any the owner left as they were) in
 * the page's language: a French farm that has not yet written its page greets in French. Said by
 * the page's loader, so these messages never reach the browser.
 */
export function wordsIn(words: PageWords, messages: ServerMessages): PageWords {
  const own = [
    { title: messages.defaultUpdatesTitle({ product: '{product}' }), text: messages.defaultUpdatesText() },
    { title: messages.defaultOffersTitle(), text: messages.defaultOffersText() },
  ]
  const kept = (owners: string, english: string | undefined, translated: string | undefined) =>
    owners === english && translated !== undefined ? translated : owners
  return {
    ...words,
    welcome: kept(words.welcome, defaultWords.welcome, messages.defaultWelcome()),
    intro: kept(words.intro, defaultWords.intro, messages.defaultIntro()),
    cards: words.cards.map((card, index) => ({
      title: kept(card.title, defaultWords.cards[index]?.title, own[index]?.title),
      text: kept(card.text, defaultWords.cards[index]?.text, own[index]?.text),
    })),
  }
}
