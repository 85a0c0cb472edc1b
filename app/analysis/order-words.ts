/**
 * The words an order is written in: counts, units and the phrases that ask for something, in
 * English and the languages of the products' other names (French, Spanish, German, Italian,
 * Portuguese, Dutch). Written without accents: the reader folds them away first.
 */

/** Each unit word as the order counts it: singular, as the week list's units are matched. */
export const unitWords: Record<string, string> = {
  ...spellings('dozen', [
    'dozen',
    'dozens',
    'doz',
    'dozn',
    'dz',
    'douzaine',
    'douzaines',
    'docena',
    'docenas',
    'dutzend',
  ]),
  ...spellings('dozen', ['dozzina', 'dozzine', 'duzia', 'duzias', 'dozijn']),
  ...spellings('jar', ['jar', 'jars', 'pot', 'pots', 'tarro', 'tarros', 'frasco', 'frascos', 'glas', 'glaser']),
  ...spellings('jar', ['glasser', 'vasetto', 'vasetti', 'barattolo', 'barattoli', 'potje', 'potjes']),
  ...spellings('kg', ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes', 'kilogramm']),
  ...spellings('g', ['g', 'gr', 'gram', 'grams', 'gramme', 'grammes', 'gramm', 'gramos']),
  ...spellings('lb', ['lb', 'lbs', 'pound', 'pounds']),
  ...spellings('box', ['box', 'boxes', 'boite', 'boites', 'caja', 'cajas', 'kiste', 'scatola', 'caixa', 'doos']),
  ...spellings('bag', ['bag', 'bags', 'sac', 'sachet', 'bolsa', 'tute', 'sacchetto', 'saco', 'zak']),
  ...spellings('punnet', ['punnet', 'punnets', 'barquette', 'barquettes', 'schale', 'bakje', 'bakjes']),
  ...spellings('bunch', ['bunch', 'bunches', 'bouquet', 'bouquets', 'ramo', 'ramos', 'strauss', 'mazzo', 'bos']),
  ...spellings('tray', ['tray', 'trays', 'plateau', 'bandeja']),
  ...spellings('sack', ['sack', 'sacks']),
  ...spellings('crate', ['crate', 'crates', 'case', 'cases']),
  ...spellings('litre', ['litre', 'litres', 'liter', 'liters', 'l', 'litro', 'litros']),
  ...spellings('pint', ['pint', 'pints']),
  ...spellings('bottle', ['bottle', 'bottles', 'bouteille', 'botella', 'flasche', 'bottiglia', 'garrafa', 'fles']),
  ...spellings('pack', ['pack', 'packs', 'packet', 'packets']),
  ...spellings('tub', ['tub', 'tubs']),
  ...spellings('loaf', ['loaf', 'loaves']),
  ...spellings('head', ['head', 'heads']),
  ...spellings('share', ['share', 'shares']),
  ...spellings('joint', ['joint', 'joints']),
  ...spellings('leg', ['leg', 'legs']),
  ...spellings('shoulder', ['shoulder', 'shoulders']),
  ...spellings('rack', ['rack', 'racks']),
  ...spellings('block', ['block', 'blocks']),
  ...spellings('wedge', ['wedge', 'wedges']),
  ...spellings('piece', ['piece', 'pieces']),
}

function spellings(unit: string, words: string[]): Record<string, string> {
  return Object.fromEntries(words.map((word) => [word, unit]))
}

/** Counts written as words: 'two', 'deux', 'zwei'. */
export const countWords: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, eighteen: 18,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, couple: 2, pair: 2,
  deux: 2, trois: 3, quatre: 4, cinq: 5, dix: 10, douze: 12,
  dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, diez: 10, doce: 12,
  zwei: 2, drei: 3, vier: 4, funf: 5, fuenf: 5, sechs: 6, zehn: 10, zwolf: 12,
  due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, dieci: 10, dodici: 12,
  dois: 2, duas: 2, quatro: 4, dez: 10, doze: 12,
  twee: 2, drie: 3, vijf: 5, zes: 6, tien: 10, twaalf: 12,
} // prettier-ignore

/** 'a', 'an', 'one' in each language: a count of one before a unit or a product. */
export const oneWords = new Set(['a', 'an', 'un', 'une', 'una', 'uno', 'ein', 'eine', 'einen', 'een', 'um', 'uma'])

export const halfWords = new Set(['half', 'demi', 'demie', 'media', 'medio', 'halbes', 'halbe', 'mezza', 'mezzo'])

/** Words between a count and its product that say nothing of either: '2 dozen large free range eggs'. */
export const fillerWords = new Set([
  ...['of', 'the', 'your', 'some', 'more', 'extra', 'fresh', 'free', 'range', 'large', 'big', 'small', 'medium'],
  ...['whole', 'organic', 'local', 'nice', 'good', 'lovely', 'raw', 'new', 'brown', 'white', 'red', 'green', 'mixed'],
  ...['de', 'd', 'des', 'du', 'di', 'del', 'von', 'van', 'da', 'do', 'x'],
])

/** A count followed by one of these is not of goods: '2 adults', '10 minutes'. */
export const notGoods = new Set([
  ...['adult', 'adults', 'kid', 'kids', 'child', 'children', 'people', 'person', 'persons', 'guest', 'guests'],
  ...['friend', 'friends', 'family', 'families', 'us', 'of', 'minute', 'minutes', 'min', 'mins', 'hour', 'hours'],
  ...['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'time', 'times', 'am', 'pm', 'oclock'],
  ...['euro', 'euros', 'quid', 'pence', 'p', 'dollar', 'dollars', 'cent', 'cents', 'percent', 'star', 'stars'],
  ...['mile', 'miles', 'km', 'car', 'cars', 'dog', 'dogs', 'and', 'or', 'to', 'for', 'at', 'in', 'on', 'the'],
  ...['a', 'please', 'thanks', 'is', 'are', 'was', 'were', 'will', 'more', 'left', 'each', 'total', 'only'],
])

/** What asks for goods. Strong: it asks even in a sentence about prices ('I'd like 2 dozen, how much is that?'). */
export const strongAsking = new RegExp(
  [
    String.raw`\b(order|reserve|(save|keep|hold) (me|us)|put (aside|by|away)|set aside|put [^.?!]{1,40} (aside|by)|collect|pick(ing)? ?up`,
    String.raw`i'?d (like|love)|we'?d (like|love)|would (like|love)|can (i|we) (get|have|grab|order)`,
    String.raw`could (i|we) (get|have|grab|order)|may (i|we) (have|get)|i'?ll take|we'?ll take|i will take`,
    String.raw`commander|commande|reserver|voudrais|voudrions|aimerais|souhaite|je prends`,
    String.raw`quiero|quisiera|querria|reservar|pedir|encargar|gustaria|mochte|mochten|hatte gern|bestellen`,
    String.raw`reservieren|abholen|vorrei|ordinare|prenotare|ritirare|queria|gostaria|encomendar|graag|zou|wil)\b`,
  ].join('|'),
)

/** What asks politely, or only perhaps: not in a sentence about prices ('please could you tell me the price'). */
export const weakAsking =
  /\b(want|need|get|buy|book|take|after|hold|bring|please|pls|plz|bitte|por favor|s'?il (vous|te) plait|svp|per favore)\b/

/** 'I'd like to know': a question, not an order. */
export const onlyAsksToKnow =
  /\b((i'?d|we'?d|would) (like|love)|want|wanted) (to (know|ask|find out|check|enquire|inquire|see|visit|come)|some (info|information|details)|more (info|information|details)|a quote|a price list|prices)\b/g

/** Words that make a sentence about prices, not an order. */
export const aboutPrices =
  /\b(how much|price|prices|priced|pricing|cost|costs|charge|quote|per|rate|rates|combien|prix|cuanto|precio|wie viel|wieviel|preis|quanto|prezzo|preco|hoeveel|prijs)\b/

/** Words that tell of what happened, not what is wanted now. */
export const tellsOfThePast =
  /\b(bought|ordered|had|got|was|were|did|last (week|time|month|year|saturday|sunday|friday)|yesterday|ago|picked up|collected|received|arrived)\b/

/** Words that ask whether there is any, without asking for it. */
export const asksIfThereIs =
  /\b(do you (have|sell|do|stock)|have you got|is there|are there|any .* left|when will|too (late|early)|in season)\b/

/** A sentence that says 'not this': 'no eggs this week', "don't need honey". */
export const turnsDown = /\b(no|not|don'?t|dont|without|except|instead of|nor|never)\b/

/** One letter added, dropped, changed, or two side by side swapped. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false
  let at = 0
  while (at < a.length && a[at] === b[at]) at++
  const swapped = a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2)
  return (
    swapped || a.slice(at + 1) === b.slice(at + 1) || a.slice(at + 1) === b.slice(at) || a.slice(at) === b.slice(at + 1)
  )
}
