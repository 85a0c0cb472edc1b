// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Appena raccolto nei nostri campi",
  pageDescription: () => "Iscriviti per ricevere le novità di stagione, le feste in fattoria e offerte riservate, direttamente dalla fattoria.",
  defaultWelcome: () => "Benvenuti a",
  defaultIntro: () => "Lasciaci i tuoi dati: ti terremo al corrente delle novità e ti riserveremo offerte pensate per i nostri clienti.",
  defaultUpdatesTitle: (d) => "Novità: " + d.product,
  defaultUpdatesText: () => "Scopri per primo cosa è maturo nei campi: prodotti di stagione, feste in fattoria e il nostro modo di coltivare con rispetto per la terra.",
  defaultOffersTitle: () => "Offerte riservate",
  defaultOffersText: () => "Accesso in anteprima ai raccolti limitati e prezzi speciali, solo per chi è nella nostra lista.",
  thankYou: () => "Grazie! Il tuo messaggio è arrivato in fattoria.",
  couldNotSend: () => "Al momento non siamo riusciti a inviare il tuo messaggio. Riprova tra poco.",
  couldNotRead: () => "Non siamo riusciti a leggere il modulo. Riprova.",
  tooManySubmissions: () => "Troppi invii dal tuo indirizzo. Aspetta un minuto e riprova.",
  updatedOn: (d) => "Aggiornato il " + d.date,
  available: () => "Disponibile ora",
  fewLeft: () => "Ultimi rimasti",
  comingSoon: () => "In arrivo",
  soldOut: () => "Esaurito",
  outOfSeason: () => "Fuori stagione",
  comingSoonFrom: (d) => "In arrivo, dalla settimana del " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Il tuo messaggio a " + d.farm,
  mailAcknowledgementSubject: (d) => "Abbiamo ricevuto il tuo messaggio — " + d.farm,
  mailConfirmationSubject: (d) => "Vuoi ricevere le novità di " + d.farm + "?",
  mailYouWrote: (d) => "Il " + d.when + " hai scritto:",
  mailFooter: () => "Ricevi questa email perché questo indirizzo è stato inserito nel nostro modulo di contatto. Se non sei tu ad averlo fatto, ignorala pure.",
  mailAskForUpdates: (d) => "Vuoi ricevere via email le novità di " + d.farm + ": nuovi prodotti, cosa è di stagione e offerte? Se sì, confermalo qui (il link vale 7 giorni):\n" + d.link + "\n\nSe non fai nulla, non riceverai nessuna novità.",
  acknowledgementText: (d) => "Grazie per aver scritto a " + d.farm + ". Abbiamo ricevuto il tuo messaggio e ti risponderemo al più presto.\n\n" + d.farm,
  askOnlyText: (d) => "Grazie per aver scritto a " + d.farm + "."
}
export default messages
