// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { ServerMessages } from './messages'

const messages: ServerMessages = {
  pageTitle: (d) => d.farm + " — Acabado de colher",
  pageDescription: () => "Inscreva-se para saber dos produtos da época, dos dias abertos na quinta e de ofertas exclusivas, diretamente da quinta.",
  defaultWelcome: () => "Bem-vindo à",
  defaultIntro: () => "Deixe-nos o seu contacto para saber das nossas novidades e receber ofertas só para os nossos clientes.",
  defaultUpdatesTitle: (d) => "Novidades: " + d.product,
  defaultUpdatesText: () => "Seja o primeiro a saber o que está maduro nos campos: produtos da época, dias abertos na quinta e a nossa forma de cultivar com respeito pela terra.",
  defaultOffersTitle: () => "Ofertas exclusivas",
  defaultOffersText: () => "Acesso antecipado a colheitas limitadas e preços especiais, só para quem está na nossa lista.",
  thankYou: () => "Obrigado! A sua mensagem chegou à quinta.",
  couldNotSend: () => "Não foi possível enviar a sua mensagem agora. Tente outra vez daqui a pouco.",
  couldNotRead: () => "Não conseguimos ler o formulário. Tente outra vez.",
  tooManySubmissions: () => "Demasiados envios a partir do seu endereço. Aguarde um minuto e tente outra vez.",
  updatedOn: (d) => "Atualizado a " + d.date,
  available: () => "Disponível",
  fewLeft: () => "Restam poucos",
  comingSoon: () => "Brevemente",
  soldOut: () => "Esgotado",
  outOfSeason: () => "Fora de época",
  comingSoonFrom: (d) => "Brevemente, a partir da semana de " + d.date,
  priceFor: (d) => d.price + " " + d.unit,
  mailReplySubject: (d) => "Re: A sua mensagem para " + d.farm,
  mailAcknowledgementSubject: (d) => "Recebemos a sua mensagem — " + d.farm,
  mailConfirmationSubject: (d) => "Quer receber as novidades de " + d.farm + "?",
  mailYouWrote: (d) => "Em " + d.when + ", escreveu:",
  mailFooter: () => "Recebe este email porque este endereço foi indicado no nosso formulário de contacto. Se não foi você, basta ignorá-lo.",
  mailAskForUpdates: (d) => "Quer receber por email as novidades de " + d.farm + ": produtos novos, o que está da época e ofertas? Se sim, diga-nos aqui (a ligação é válida durante 7 dias):\n" + d.link + "\n\nSe não fizer nada, não receberá novidades.",
  acknowledgementText: (d) => "Obrigado por escrever a " + d.farm + ". Recebemos a sua mensagem e responderemos logo que possível.\n\n" + d.farm,
  askOnlyText: (d) => "Obrigado por escrever a " + d.farm + "."
}
export default messages
