// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Tout droit de nos champs",
  pageDescription: () => "Inscrivez-vous pour suivre nos produits de saison, nos fêtes à la ferme et nos offres réservées, en direct de la ferme.",
  defaultWelcome: () => "Bienvenue à",
  defaultIntro: () => "Laissez-nous vos coordonnées pour suivre nos nouveautés et profiter d’offres réservées à nos clients.",
  defaultUpdatesTitle: (d) => "Nouvelles : " + d.product,
  defaultUpdatesText: () => "Soyez les premiers à savoir ce qui est mûr dans nos champs : produits de saison, fêtes à la ferme et notre façon de cultiver dans le respect de la terre.",
  defaultOffersTitle: () => "Offres réservées",
  defaultOffersText: () => "Un accès en avant-première aux petites récoltes et des prix doux, uniquement pour les inscrits.",
  thankYou: () => "Merci ! Votre message est bien arrivé à la ferme.",
  couldNotSend: () => "Votre message n’a pas pu partir pour l’instant. Réessayez dans un petit moment.",
  couldNotRead: () => "Nous n’avons pas pu lire le formulaire. Merci de réessayer.",
  tooManySubmissions: () => "Trop d’envois depuis votre adresse. Patientez une minute, puis réessayez.",
  updatedOn: (d) => "Mis à jour le " + d.date,
  available: () => "Disponible",
  fewLeft: () => "Plus que quelques-uns",
  comingSoon: () => "Bientôt là",
  soldOut: () => "Épuisé",
  outOfSeason: () => "Hors saison",
  comingSoonFrom: (d) => "Bientôt là, à partir de la semaine du " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Votre message à " + d.farm,
  mailAcknowledgementSubject: (d) => "Nous avons bien reçu votre message — " + d.farm,
  mailConfirmationSubject: (d) => "Souhaitez-vous recevoir les nouvelles de " + d.farm + " ?",
  mailYouWrote: (d) => "Le " + d.when + ", vous avez écrit :",
  mailFooter: () => "Vous recevez ce message parce que cette adresse a été indiquée dans notre formulaire de contact. Si ce n’était pas vous, ignorez-le simplement.",
  mailAskForUpdates: (d) => "Souhaitez-vous recevoir par e-mail les nouvelles de " + d.farm + " : nouveaux produits, ce qui est de saison et nos offres ? Si oui, dites-le-nous ici (le lien reste valable 7 jours) :\n" + d.link + "\n\nSans réponse de votre part, vous ne recevrez rien.",
  acknowledgementText: (d) => "Merci d’avoir écrit à " + d.farm + ". Nous avons bien reçu votre message et nous vous répondrons dès que possible.\n\n" + d.farm,
  askOnlyText: (d) => "Merci d’avoir écrit à " + d.farm + "."
}
export default messages
