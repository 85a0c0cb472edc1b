// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Frisch von unseren Feldern",
  pageDescription: () => "Melden Sie sich an: Saisonware, Hoffeste und Angebote nur für Sie, direkt vom Hof.",
  defaultWelcome: () => "Willkommen bei",
  defaultIntro: () => "Tragen Sie sich ein, dann erfahren Sie als Erste von unseren neuen Produkten und bekommen Angebote nur für unsere Kundschaft.",
  defaultUpdatesTitle: (d) => "Neues rund um " + d.product,
  defaultUpdatesText: () => "Erfahren Sie zuerst, was auf den Feldern reif ist: Saisonware, Hoffeste und wie wir nachhaltig wirtschaften.",
  defaultOffersTitle: () => "Angebote nur für Sie",
  defaultOffersText: () => "Vorab Zugriff auf kleine Ernten und besondere Preise, nur für alle auf unserer Liste.",
  thankYou: () => "Vielen Dank! Ihre Nachricht ist bei uns auf dem Hof angekommen.",
  couldNotSend: () => "Ihre Nachricht ließ sich gerade nicht senden. Bitte versuchen Sie es gleich noch einmal.",
  couldNotRead: () => "Wir konnten das Formular nicht lesen. Bitte versuchen Sie es noch einmal.",
  tooManySubmissions: () => "Zu viele Nachrichten von Ihrer Adresse. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.",
  updatedOn: (d) => "Stand: " + d.date,
  available: () => "Jetzt erhältlich",
  fewLeft: () => "Nur noch wenige",
  comingSoon: () => "Bald erhältlich",
  soldOut: () => "Ausverkauft",
  outOfSeason: () => "Keine Saison",
  comingSoonFrom: (d) => "Bald erhältlich, ab der Woche vom " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Ihre Nachricht an " + d.farm,
  mailAcknowledgementSubject: (d) => "Ihre Nachricht ist angekommen — " + d.farm,
  mailConfirmationSubject: (d) => "Möchten Sie Neuigkeiten von " + d.farm + " erhalten?",
  mailYouWrote: (d) => "Am " + d.when + " schrieben Sie:",
  mailFooter: () => "Sie erhalten diese E-Mail, weil diese Adresse in unserem Kontaktformular angegeben wurde. Falls Sie das nicht waren, ignorieren Sie sie bitte einfach.",
  mailAskForUpdates: (d) => "Möchten Sie die Neuigkeiten von " + d.farm + " per E-Mail bekommen – neue Produkte, was gerade Saison hat, und Angebote? Dann sagen Sie hier Ja (der Link gilt 7 Tage):\n" + d.link + "\n\nWenn Sie nichts tun, bekommen Sie keine Neuigkeiten.",
  acknowledgementText: (d) => "Vielen Dank für Ihre Nachricht an " + d.farm + ". Sie ist bei uns angekommen, und wir antworten Ihnen so bald wie möglich.\n\n" + d.farm,
  askOnlyText: (d) => "Vielen Dank für Ihre Nachricht an " + d.farm + "."
}
export default messages
