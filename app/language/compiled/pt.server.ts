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
  priceFor: (d) => d.price + " " + d.unit
}
export default messages
