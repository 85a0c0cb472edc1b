// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Vers van onze akkers",
  pageDescription: () => "Schrijf je in voor seizoensnieuws, activiteiten op de boerderij en aanbiedingen alleen voor jou, rechtstreeks van de boerderij.",
  defaultWelcome: () => "Welkom bij",
  defaultIntro: () => "Laat je gegevens achter, dan hoor je als eerste wat er nieuw is en krijg je aanbiedingen die alleen voor onze klanten zijn.",
  defaultUpdatesTitle: (d) => "Nieuws over " + d.product,
  defaultUpdatesText: () => "Hoor als eerste wat er rijp is op het veld: seizoensproducten, activiteiten op de boerderij en hoe we duurzaam boeren.",
  defaultOffersTitle: () => "Speciaal voor jou",
  defaultOffersText: () => "Als eerste bij kleine oogsten en speciale prijzen, alleen voor wie op onze lijst staat.",
  thankYou: () => "Bedankt! Je bericht is bij de boerderij aangekomen.",
  couldNotSend: () => "Je bericht kon nu even niet verstuurd worden. Probeer het zo nog eens.",
  couldNotRead: () => "We konden het formulier niet lezen. Probeer het nog eens.",
  tooManySubmissions: () => "Te veel berichten vanaf je adres. Wacht een minuutje en probeer het dan opnieuw.",
  updatedOn: (d) => "Bijgewerkt op " + d.date,
  available: () => "Nu verkrijgbaar",
  fewLeft: () => "Bijna op",
  comingSoon: () => "Binnenkort",
  soldOut: () => "Uitverkocht",
  outOfSeason: () => "Buiten het seizoen",
  comingSoonFrom: (d) => "Binnenkort, vanaf de week van " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Je bericht aan " + d.farm,
  mailAcknowledgementSubject: (d) => "We hebben je bericht ontvangen — " + d.farm,
  mailConfirmationSubject: (d) => "Wil je nieuws van " + d.farm + " ontvangen?",
  mailYouWrote: (d) => "Op " + d.when + " schreef je:",
  mailFooter: () => "Je krijgt deze e-mail omdat dit adres is ingevuld op ons contactformulier. Was jij dat niet, dan kun je deze e-mail negeren.",
  mailAskForUpdates: (d) => "Wil je het nieuws van " + d.farm + " per e-mail ontvangen: nieuwe producten, wat er in het seizoen is en aanbiedingen? Zeg dan hier ja (de link is 7 dagen geldig):\n" + d.link + "\n\nDoe je niets, dan krijg je geen nieuws van ons.",
  acknowledgementText: (d) => "Bedankt voor je bericht aan " + d.farm + ". We hebben het ontvangen en antwoorden zo snel mogelijk.\n\n" + d.farm,
  askOnlyText: (d) => "Bedankt voor je bericht aan " + d.farm + "."
}
export default messages
