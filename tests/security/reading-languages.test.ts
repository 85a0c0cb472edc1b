// Messages shaped against the reader of six more languages (issue 50): English read as another
// language, one language's words taken for another's, customers set aside, pitches let through.
import { describe, expect, it } from 'vitest'
import { writtenIn } from '#app/analysis/languages/written-in'
import { createOfflineReader } from '#app/analysis/offline.server'
import { defaultFarmProducts, readProductList } from '#app/analysis/products'
import { quickSpamReading } from '#app/analysis/spam-signals'
import { trimQuotedHistory } from '#app/mail-back/quoted-history'

const read = createOfflineReader(readProductList(defaultFarmProducts))
/** Wednesday 10 June 2026, as the labelled sets. */
const sentAt = new Date('2026-06-10T09:00:00.000Z')
const reading = (message: string) => read({ name: 'Sam', email: 'sam@example.com', message }, sentAt)

describe('the reader of every language, attacked', () => {
  it.each([
    'Save me a chicken, no rush',
    'No worries, ring me Monday.',
    'Price per kg for lamb? No rush, ring me.',
    'Eggs per tray? Per box?',
    'Do u do deliveries? No car.',
    'As usual, no eggs for Mel. Do u do duck eggs?',
  ])('never takes the English %j for another language', (message) => {
    expect(['en', null]).toContain(writtenIn(message))
  })

  it.each([
    ['tu pourrais me mettre de côté 5 kg de pommes de terre et une botte de carottes ?', 'fr'],
    ['¿Qué precio tiene el saco de 25 kilos de patatas? Quiero reservar dos kilos de tomates', 'es'],
  ])('knows %j is %s', (message, language) => {
    expect(writtenIn(message)).toBe(language)
  })

  it.each([
    'Came Sunday, no one there. Wasted trip for me.',
    'Bought 6 eggs Saturday, 2 cracked',
    'É a segunda vez que a minha encomenda não chega. Muito mau.',
    'Es la segunda vez que mi pedido no llega.',
    'È la quarta volta che la cassetta arriva in ritardo.',
  ])('reads no urgency into %j (a day gone by, or an ordinal)', (message) => {
    expect(reading(message).urgency).toEqual({ level: 'normal', cues: [] })
  })

  it.each([
    'Pick up Sunday 11 ok?',
    'Bonjour, je passe samedi 10h récupérer mes œufs',
    'ich komme Samstag 10 Uhr vorbei',
    'Kan ik mijn bestelling op zaterdag ophalen?',
  ])('reads %j as this week (a weekday and its hour)', (message) => {
    expect(reading(message).urgency.level).toBe('high')
  })

  it.each([
    'Is the farm open Sunday? We found you via visitbritain.com, the tourist bureau site.',
    'Hi, I manage the Pret on the high street, could you supply eggs? Menu at pret.com',
    'Hola, he seleccionado la cesta grande en el formulario. ¿Cuándo la recojo?',
    'Ho selezionato la cassetta grande nel modulo, quando posso ritirarla?',
    'ich habe im Formular die Gemüsekiste ausgewählt',
    '¿Venden tarjeta regalo? Quiero regalar una cesta a mi madre.',
    'Avete un buono acquisto da regalare?',
    'Verkopen jullie een cadeaubon? Is parkeren gratis?',
    "j'ai vu sur votre site internet que vous vendez des œufs, c'est gratuit le parking ?",
    'Ik zag op uw website dat parkeren gratis is',
    '¡Enhorabuena por el premio! Las fresas son las mejores.',
    'Gefeliciteerd met de prijs die jullie gewonnen hebben!',
    'Herzlichen Glückwunsch zum Preis, den ihr gewonnen habt!',
  ])('never sets aside the customer who wrote %j', (message) => {
    expect(reading(message).spam.isSpam).toBe(false)
    expect(quickSpamReading({ name: 'Sam', email: 'sam@example.com', message }).isSpam).toBe(false)
  })

  it.each([
    'Sehr geehrte Damen und Herren, wir bieten professionelle Suchmaschinenoptimierung für Ihren Hofladen an. Mehr Besucher auf Ihrer Webseite, garantiert!',
    'Hola, ha sido elegido ganador de un iPhone. Envíe sus datos bancarios para recibirlo.',
    'Bonjour, vous avez été sélectionné pour recevoir un iPhone 15. Envoyez vos coordonnées bancaires.',
  ])('sets aside the pitch %j', (message) => {
    expect(reading(message).spam.isSpam).toBe(true)
  })

  it.each([
    ['Kunnen we aardappels bestellen voor vrijdag?', ['potatoes']],
    ['Haben Sie auch Blumenkohl? Ich würde gern welchen bestellen.', ['vegetables']],
    ['Die Glühbirne im Hofladen ist kaputt.', []],
    ['Ich hätte gern ein Sparschwein für meine Tochter.', []],
  ])('finds in %j the products %j, and no others a compound hides', (message, products) => {
    expect(reading(message).products).toEqual(products)
  })

  it('reads an order with a thank-you as an order', () => {
    expect(reading('Quisiera un kilo de fresas para el sábado, gracias').intents[0]).toBe('order')
    expect(reading('Je voudrais commander trois pots de miel pour jeudi, merci').intents).toEqual(['order'])
  })

  it('cuts Spanish Outlook’s history, and keeps a line a person wrote that only sounds like a header', () => {
    expect(
      trimQuotedHistory('Sí.\n\nDe: Granja <farm@farm.test>\nEnviado el: jueves, 26 de noviembre de 2026 10:00'),
    ).toBe('Sí.')
    const own = 'Il mio vicino ha scritto:\nle vostre uova sono le migliori.'
    expect(trimQuotedHistory(own)).toBe(own)
  })
})
