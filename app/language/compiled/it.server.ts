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
  priceFor: (d) => d.price + " " + d.unit
}
export default messages
