// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Fresh from our fields",
  pageDescription: () => "Sign up for seasonal produce updates, farm events and exclusive offers straight from the farm.",
  defaultWelcome: () => "Welcome to",
  defaultIntro: () => "Fill out the form to stay updated with our latest products and receive exclusive offers.",
  defaultUpdatesTitle: (d) => d.product + " Updates",
  defaultUpdatesText: () => "Be first to hear what is ripe in the fields: seasonal produce, farm events and our sustainable farming practices.",
  defaultOffersTitle: () => "Exclusive Offers",
  defaultOffersText: () => "Early access to limited harvests and special discounts, only for the people on our list.",
  thankYou: () => "Thank you! Your message has reached the farm.",
  couldNotSend: () => "We could not send your message just now. Please try again in a moment.",
  couldNotRead: () => "We could not read the form. Please try again.",
  tooManySubmissions: () => "Too many submissions from your address. Please wait a minute and try again.",
  updatedOn: (d) => "Updated " + d.date,
  available: () => "Available now",
  fewLeft: () => "Few left",
  comingSoon: () => "Coming soon",
  soldOut: () => "Sold out",
  outOfSeason: () => "Out of season",
  comingSoonFrom: (d) => "Coming soon, from the week of " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Your message to " + d.farm,
  mailAcknowledgementSubject: (d) => "We got your message — " + d.farm,
  mailConfirmationSubject: (d) => "Would you like updates from " + d.farm + "?",
  mailYouWrote: (d) => "On " + d.when + ", you wrote:",
  mailFooter: () => "You get this mail because this address was given on our contact form. If that was not you, please ignore it.",
  mailAskForUpdates: (d) => "Would you like " + d.farm + "’s updates by email: new products, what is in season, and offers? If so, say yes here (the link works for 7 days):\n" + d.link + "\n\nIf you do nothing, you will get no updates.",
  acknowledgementText: (d) => "Thank you for writing to " + d.farm + ". We have your message, and we will answer it as soon as we can.\n\n" + d.farm,
  askOnlyText: (d) => "Thank you for writing to " + d.farm + "."
}
export default messages
