// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Recién cogido del campo",
  pageDescription: () => "Apúntate y recibe las novedades de temporada, las jornadas en la granja y ofertas exclusivas, directas de la granja.",
  defaultWelcome: () => "Bienvenidos a",
  defaultIntro: () => "Déjanos tus datos y te contaremos las novedades de la huerta, con ofertas solo para nuestros clientes.",
  defaultUpdatesTitle: (d) => "Novedades: " + d.product,
  defaultUpdatesText: () => "Entérate antes que nadie de lo que está en su punto: productos de temporada, jornadas en la granja y cómo cultivamos cuidando la tierra.",
  defaultOffersTitle: () => "Ofertas exclusivas",
  defaultOffersText: () => "Acceso anticipado a cosechas limitadas y precios especiales, solo para quienes están en nuestra lista.",
  thankYou: () => "¡Gracias! Tu mensaje ya ha llegado a la granja.",
  couldNotSend: () => "Ahora mismo no hemos podido enviar tu mensaje. Vuelve a intentarlo en un momento.",
  couldNotRead: () => "No hemos podido leer el formulario. Inténtalo de nuevo.",
  tooManySubmissions: () => "Demasiados envíos desde tu dirección. Espera un minuto y vuelve a intentarlo.",
  updatedOn: (d) => "Actualizado el " + d.date,
  available: () => "Ya disponible",
  fewLeft: () => "Quedan pocos",
  comingSoon: () => "Muy pronto",
  soldOut: () => "Agotado",
  outOfSeason: () => "Fuera de temporada",
  comingSoonFrom: (d) => "Muy pronto, a partir de la semana del " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: Tu mensaje a " + d.farm,
  mailAcknowledgementSubject: (d) => "Hemos recibido tu mensaje — " + d.farm,
  mailConfirmationSubject: (d) => "¿Quieres recibir las novedades de " + d.farm + "?",
  mailYouWrote: (d) => "El " + d.when + ", escribiste:",
  mailFooter: () => "Recibes este correo porque alguien indicó esta dirección en nuestro formulario de contacto. Si no fuiste tú, ignóralo sin más.",
  mailAskForUpdates: (d) => "¿Quieres recibir por correo las novedades de " + d.farm + ": productos nuevos, lo que está de temporada y ofertas? Si es así, dinos que sí aquí (el enlace vale durante 7 días):\n" + d.link + "\n\nSi no haces nada, no recibirás ninguna novedad.",
  acknowledgementText: (d) => "Gracias por escribir a " + d.farm + ". Hemos recibido tu mensaje y te responderemos lo antes posible.\n\n" + d.farm,
  askOnlyText: (d) => "Gracias por escribir a " + d.farm + "."
}
export default messages
