import { maxOrderLines, maxUnplaced, type OrderLineRead, type OrderRead } from './analysis'
import {
  aboutPrices,
  asksIfThereIs,
  countWords,
  fillerWords,
  halfWords,
  notGoods,
  oneWords,
  onlyAsksToKnow,
  strongAsking,
  tellsOfThePast,
  turnsDown,
  unitWords,
  weakAsking,
  oneEditApart,
} from './order-words'
import { readPickUpDay, type FarmHours } from './pick-up-day'
import type { Product } from './products'

export type { FarmHours } from './pick-up-day'

/**
 * Reads the order in a message: `now` is the farm's wall clock when it was sent (wallTime), and
 * `hours` the farm's opening hours when it has published them. Null when it orders nothing.
 */
export type OrderReader = (message: string, now: Date, hours: FarmHours | null) => OrderRead | null

interface Token {
  text: string
  /**
   * A count ('2', '1.5', '1/3', '2 1/2'); NaN for one that cannot be read sensibly ('1e9', '2/7');
   * null for a word, a time, a price or a sign.
   */
  number: number | null
  word: boolean
}

interface Term {
  stems: string[]
  product: string
  /** The unit the term itself names: 'veg box' is a box. */
  unit: string
  /** Only the owner's own names forgive a slip of one letter. */
  forgiving: boolean
}

interface Match {
  product: string
  unit: string
  start: number
  /** Exclusive. */
  end: number
}

interface Sentence {
  tokens: Token[]
  text: string
  matches: Match[]
  role: 'orders' | 'goods' | 'none'
}

/** Prepares the products' names once; the reader it returns reads any number of messages. */
export function createOrderReader(products: Product[]): OrderReader {
  const terms = products.flatMap((product) =>
    [product.name, ...product.synonyms].map((term) => termOf(term, product.name, term === product.name)),
  )
  const byFirstStem = new Map<string, Term[]>()
  for (const term of terms) byFirstStem.set(term.stems[0]!, [...(byFirstStem.get(term.stems[0]!) ?? []), term])
  for (const list of byFirstStem.values()) list.sort((a, b) => b.stems.length - a.stems.length)
  const forgiving = terms.filter((term) => term.forgiving && term.stems.length === 1)
  const find = (tokens: Token[]) => findProducts(tokens, byFirstStem, forgiving)

  return (message, now, hours) => {
    const sentences = sentencesOf(message).map((text) => classify(text, find))
    if (!sentences.some((sentence) => sentence.role === 'orders' || sentence.role === 'goods')) return null
    const lines: CountedLine[] = []
    const unplaced: string[] = []
    let named: Match | undefined
    for (const sentence of sentences) {
      const read = sentence.role === 'none' ? { lines: [], unplaced: [] } : readLines(sentence, named)
      named = sentence.matches.at(-1) ?? named
      for (const line of read.lines) if (line.quantity > 0) addLine(lines, line)
      unplaced.push(...read.unplaced)
    }
    if (lines.length === 0 && unplaced.length === 0) return null
    return {
      lines: lines.slice(0, maxOrderLines).map(({ product, quantity, unit }) => ({ product, quantity, unit })),
      unplaced: [...new Set(unplaced.map((text) => text.slice(0, 80)))].slice(0, maxUnplaced),
      when: readPickUpDay(message, now, hours),
    }
  }
}

type CountedLine = OrderLineRead & { counted: boolean }

/**
 * A product named again without a count ('… eggs. The eggs brown') is the same line; one named
 * first without and then with a count ('eggs for Saturday? 2 dozen please') is the counted line.
 */
function addLine(lines: CountedLine[], line: CountedLine) {
  const uncounted = lines.findIndex((each) => each.product === line.product && !each.counted)
  if (line.counted && uncounted >= 0) lines[uncounted] = line
  else if (line.counted || !lines.some((each) => each.product === line.product)) lines.push(line)
}

function termOf(term: string, product: string, forgiving: boolean): Term {
  const words = tokensOf(normalised(term)).map((token) => token.text)
  const unit = words.map((word) => unitWords[word]).find((each) => each !== undefined && each !== 'g') ?? ''
  return { stems: words.map(stem), product, unit, forgiving }
}

/** Lower case, accents folded, and counts parted from what they count ('2x', '500g', '1½' is '1 1/2'). */
function normalised(text: string): string {
  return text
    .replace(/(\d)(?=[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])/g, '$1 ')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/(\d)⁄(?=\d)/g, '$1/')
    .replace(/(\p{L})-(?=\p{L})/gu, '$1 ')
    .replace(/(^|[^\p{L}'])([dlcjs])'(?=\p{L})/gu, '$1$2 ')
    .replace(/(\d)\s*x\b/g, '$1 x ')
    .replace(/\bx\s*(\d)/g, ' x $1')
    .replace(/(\d)(kgs?|g|gr|grams?|lbs?|l|doz|kilos?|dozen)\b/g, '$1 $2')
}

function sentencesOf(message: string): string[] {
  return normalised(message)
    .split(/(?<=[!?;\n])|(?<=\.)(?!\d)/)
    .map((text) => text.trim())
    .filter(Boolean)
}

const tokenPattern =
  /[£€$]|(?:\d+ +)?[1-3]\/[2-4](?!\d)|\d+\/\d+|\d+(?:[.,]\d+)?(?:e[+-]?\d+|\^\d+)|\d+(?:[.,]\d+)?(?::\d\d)?(?:am|pm|st|nd|rd|th|p|h)?|\p{L}+(?:'\p{L}+)?|[,:\-–=+&()/]/gu
const priceAfter = new Set(['p', 'pence', 'euro', 'euros', 'eur', 'quid', 'dollars', 'cents', 'each'])

function tokensOf(text: string): Token[] {
  const raw = text.match(tokenPattern) ?? []
  return raw.map((text, at) => {
    const price = /^[£€$]$/.test(raw[at - 1] ?? '') || priceAfter.has(raw[at + 1] ?? '')
    return { text, number: price ? null : countIn(text), word: /^\p{L}/u.test(text) }
  })
}

/** Halves, thirds and quarters, alone or after a whole count: '1/2', '2/3', '2 3/4'. */
const simpleFraction = /^(?:(\d+) +)?([1-3])\/([2-4])$/

function countIn(text: string): number | null {
  if (/^\d+([.,]\d+)?$/.test(text)) return Number(text.replace(',', '.'))
  const fraction = simpleFraction.exec(text)
  if (fraction && fraction[2]! < fraction[3]!)
    return Number(fraction[1] ?? 0) + Number(fraction[2]) / Number(fraction[3])
  // '1e9', '10^9', '2/7', '13/6': written where a count goes, but no count a farm's order is read in.
  return /^\d.*[e^/]/.test(text) ? Number.NaN : null
}

/** Plurals to one form, so 'strawberries' finds 'strawberry' and 'boxes' is 'box'. */
function stem(word: string): string {
  if (word.length <= 3) return word
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('oes')) return word.slice(0, -2)
  if (word.endsWith('ves')) return `${word.slice(0, -3)}f`
  if (/(ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !/(ss|us)$/.test(word)) return word.slice(0, -1)
  return word
}

function classify(text: string, find: (tokens: Token[]) => Match[]): Sentence {
  const tokens = tokensOf(text)
  const matches = find(tokens)
  const asks = text.replace(onlyAsksToKnow, ' ')
  const strong = strongAsking.test(asks)
  const prices = aboutPrices.test(text)
  const past = tellsOfThePast.test(text)
  const askingIfThereIs = text.includes('?') && asksIfThereIs.test(text)
  const weak = weakAsking.test(asks) && !prices && !askingIfThereIs
  if ((strong || weak) && (!past || strong)) return { tokens, text, matches, role: 'orders' }
  const counted = matches.some((match) => countBefore(tokens, match.start, -1) ?? countAfter(tokens, match, []))
  const plain = !prices && !past && !text.includes('?')
  return { tokens, text, matches, role: counted && plain ? 'goods' : 'none' }
}

/**
 * The products named in a sentence, longest names first, one product's words side by side as one;
 * so is another product's other name right after one ('lamb mince' is lamb, not beef).
 */
function findProducts(tokens: Token[], byFirstStem: Map<string, Term[]>, forgiving: Term[]): Match[] {
  const matches: Match[] = []
  for (let at = 0; at < tokens.length;) {
    const term = termAt(tokens, at, byFirstStem, forgiving)
    if (!term) {
      at++
      continue
    }
    const end = at + term.stems.length
    const last = matches.at(-1)
    if (last && last.end === at && (last.product === term.product || !term.forgiving)) {
      matches[matches.length - 1] = { ...last, end, unit: last.unit || term.unit }
    } else matches.push({ product: term.product, unit: term.unit, start: at, end })
    at = end
  }
  return matches
}

function termAt(tokens: Token[], at: number, byFirstStem: Map<string, Term[]>, forgiving: Term[]) {
  const first = tokens[at]
  if (!first?.word) return undefined
  const stems = tokens.slice(at, at + 6).map((token) => stem(token.text))
  const exact = byFirstStem.get(stems[0]!)?.find((term) => term.stems.every((each, offset) => stems[offset] === each))
  return exact ?? forgiving.find((term) => closeEnough(stems[0]!, term.stems[0]!))
}

function closeEnough(typed: string, known: string): boolean {
  if (typed[0] !== known[0] || known.length < 5) return false
  // 'hony' for 'honey': a short word may only have lost a letter.
  if (typed.length === 4) return known.length === 5 && oneEditApart(typed, known)
  return typed.length >= 5 && oneEditApart(typed, known)
}

interface Count {
  quantity: number
  unit: string
  /** The first token of the count. */
  start: number
  /** Exclusive: past the count when it follows the product. */
  end: number
}

/** The lines of one sentence; `named`, the product an earlier sentence named last ('Any eggs? I'd like 2 dozen'). */
function readLines(sentence: Sentence, named: Match | undefined) {
  const { tokens, role, matches } = sentence
  const lines: CountedLine[] = []
  // Counted in a way no order is ('1e9 jars', '2/7 dozen'): left to the team as written.
  const unreadable: string[] = []
  let floor = -1
  const used = new Set<number>()
  matches.forEach((match, index) => {
    const next = matches[index + 1]
    const count = countBefore(tokens, match.start, floor) ?? countAfter(tokens, match, next ? [next.start] : [])
    floor = Math.max(match.end, count?.end ?? 0) - 1
    if (!count && (role !== 'orders' || turnedDown(tokens, match.start))) return
    const [start, end] = [count?.start ?? match.start, Math.max(match.end, count?.end ?? 0)]
    for (let at = start; at < end; at++) used.add(at)
    if (count && !sensible(count.quantity)) unreadable.push(textOf(tokens, start, end))
    else
      lines.push({
        product: match.product,
        ...asTheFormTakes(count?.quantity ?? 1, count?.unit || match.unit),
        counted: count !== null,
      })
  })
  if (role !== 'orders') return { lines, unplaced: unreadable }
  const alone = matches.length === 0 && named ? countWithoutProduct(tokens) : null
  if (alone && !sensible(alone.quantity)) unreadable.push(textOf(tokens, alone.start, alone.end))
  else if (alone && named)
    lines.push({ product: named.product, ...asTheFormTakes(alone.quantity, alone.unit), counted: true })
  return {
    lines,
    unplaced: [...unreadable, ...unplacedIn(tokens, used, matches), ...orderedUnnamed(tokens, used, matches)],
  }
}

/** No count past 100,000 is an order (the stored reading's bound), nor one that is not a number. */
const sensible = (quantity: number) => quantity <= 100_000

/**
 * A quantity as the card's form takes it, to the thousandth: a third of a dozen is 4 of each,
 * not 0.333 dozen.
 */
function asTheFormTakes(quantity: number, unit: string): { quantity: number; unit: string } {
  const [thousandths, ones] = [quantity * 1000, quantity * 12]
  const whole = (value: number) => Math.abs(value - Math.round(value)) < 1e-9
  if (unit === 'dozen' && !whole(thousandths) && whole(ones)) return { quantity: Math.round(ones), unit: '' }
  return { quantity: Math.round(thousandths) / 1000, unit }
}

const textOf = (tokens: Token[], start: number, end: number) =>
  tokens
    .slice(start, end)
    .map((token) => token.text)
    .join(' ')

/** '… I would like 2 dozen for Saturday': a count and a unit, and no product after them, nor a price before. */
function countWithoutProduct(tokens: Token[]): Count | null {
  for (let at = 1; at < tokens.length; at++) {
    const unit = unitWords[tokens[at]!.text]
    const count = unit === undefined ? null : countEndingAt(tokens, at - 1, -1)
    // '£3 a dozen', '4 euros per kg': a price, not a count.
    if (!unit || !count || /^([£€$]|per|\d.*)$/.test(tokens[count.start - 1]?.text ?? '')) continue
    return { quantity: count.value, unit, start: count.start, end: at + 1 }
  }
  return null
}

/** 'I'd like to order a Christmas turkey': what follows the asking, when it names nothing on the list. */
function orderedUnnamed(tokens: Token[], used: Set<number>, matches: Match[]): string[] {
  const at = tokens.findIndex((token) =>
    /^(order|reserve|commander|reservar|bestellen|ordinare|encomendar)$/.test(token.text),
  )
  if (at < 0 || matches.length > 0 || used.size > 0 || !oneWords.has(tokens[at + 1]?.text ?? '')) return []
  const words: string[] = []
  for (const token of tokens.slice(at + 1, at + 5)) {
    if (!token.word || /^(for|please|and|to|on|this|next|by|pour|para|fur|per|voor)$/.test(token.text)) break
    words.push(token.text)
  }
  return words.length > 1 ? [words.join(' ')] : []
}

function turnedDown(tokens: Token[], at: number): boolean {
  return tokens.slice(Math.max(0, at - 4), at).some((token) => turnsDown.test(token.text))
}

/** A count just before a product: '2 dozen', 'half a dozen', 'a jar of', '1.5 kg', '2 x', 'a couple of'. */
function countBefore(tokens: Token[], start: number, floor: number): Count | null {
  let at = start - 1
  // '2 jars of your heather honey': one word of its own kind after 'of' or 'your'.
  if (
    at - 1 > floor &&
    tokens[at]?.word &&
    fillerWords.has(tokens[at - 1]!.text) &&
    !fillerWords.has(tokens[at]!.text)
  ) {
    if (unitWords[tokens[at]!.text] === undefined && countWords[tokens[at]!.text] === undefined) at--
  }
  for (let skipped = 0; skipped < 3 && at > floor && fillerWords.has(tokens[at]?.text ?? ''); skipped++) at--
  const unit = at > floor ? unitWords[tokens[at]?.text ?? ''] : undefined
  if (unit !== undefined) at--
  if (tokens[at]?.text === 'x' && at > floor) at--
  const count = at > floor ? countEndingAt(tokens, at, floor) : null
  if (!count) return unit === undefined ? null : { quantity: 1, unit, start: at + 1, end: start }
  // '3 x 1 dozen eggs', '2 x 6 eggs': so many of so many.
  const times = tokens[count.start - 1]?.text === 'x' ? countEndingAt(tokens, count.start - 2, floor) : null
  const quantity = times ? times.value * count.value : count.value
  return { quantity, unit: unit ?? '', start: times?.start ?? count.start, end: start }
}

function countEndingAt(tokens: Token[], at: number, floor: number): { value: number; start: number } | null {
  const text = (offset: number) => (at - offset > floor ? (tokens[at - offset]?.text ?? '') : '')
  const token = tokens[at]
  if (!token) return null
  if (halfWords.has(token.text)) {
    const whole = text(2) === 'and' && oneWords.has(text(1)) ? countEndingAt(tokens, at - 3, floor) : null
    if (whole) return { value: whole.value + 0.5, start: whole.start }
    return { value: 0.5, start: oneWords.has(text(1)) ? at - 1 : at }
  }
  if (oneWords.has(token.text))
    return { value: halfWords.has(text(1)) ? 0.5 : 1, start: halfWords.has(text(1)) ? at - 1 : at }
  const value = token.number ?? countWords[token.text]
  if (value === undefined) return null
  if ((token.text === 'couple' || token.text === 'pair') && oneWords.has(text(1))) return { value, start: at - 1 }
  const tens = countWords[text(1)]
  if (tens !== undefined && tens >= 20 && tens % 10 === 0 && value < 10) return { value: tens + value, start: at - 1 }
  return { value, start: at }
}

/** A count just after a product, as lists write it: 'eggs - 2 dozen', 'honey x2', 'eggs: 2 doz'. */
function countAfter(tokens: Token[], match: Match, nextStarts: number[]): Count | null {
  let at = match.end
  // 'eggs - 2 dozen', 'honey x2', 'cheddar, about 500g'.
  while (
    at < match.end + 3 &&
    /^([:\-–=x(,]|about|around|maybe|roughly|say|approx|approximately|ca)$/.test(tokens[at]?.text ?? '')
  )
    at++
  const token = tokens[at]
  const value = token?.number ?? countWords[token?.text ?? '']
  // A part of one needs its unit after it ('eggs 1.5' is no count); one that cannot be read is left to the team.
  const fractional = !Number.isInteger(value) && !Number.isNaN(value)
  if (value === undefined || value === null || (fractional && !unitWords[tokens[at + 1]?.text ?? ''])) {
    return null
  }
  const unit = unitWords[tokens[at + 1]?.text ?? '']
  const end = unit === undefined ? at + 1 : at + 2
  // '… eggs, 2 jars of honey': the count is the next product's.
  const between = (start: number) => tokens.slice(end, start).every((token) => fillerWords.has(token.text))
  if (nextStarts.some((start) => start >= at && (start <= end || between(start)))) return null
  if (unit === undefined && notGoods.has(tokens[at + 1]?.text ?? '')) return null
  return { quantity: value, unit: unit ?? '', start: match.start, end }
}

/** Counted goods not on the farm's list: 'a bag of flour', '2 loaves of bread', '3 baguettes'. */
function unplacedIn(tokens: Token[], used: Set<number>, matches: Match[]): string[] {
  const productStarts = new Set(matches.map((match) => match.start))
  const found: string[] = []
  tokens.forEach((token, at) => {
    if (used.has(at) || (token.number === null && countWords[token.text] === undefined && !oneWords.has(token.text))) {
      return
    }
    const unit = unitWords[tokens[at + 1]?.text ?? '']
    let end = unit === undefined ? at + 1 : at + 2
    if (unit === undefined && (oneWords.has(token.text) || token.number === null)) return
    while (fillerWords.has(tokens[end]?.text ?? '') && end < at + 5) end++
    const noun = tokens[end]
    if (!noun?.word || notGoods.has(noun.text) || unitWords[noun.text] || productStarts.has(end) || used.has(end)) {
      return
    }
    if (noun.text.length < 3) return
    for (let at2 = at; at2 <= end; at2++) used.add(at2)
    found.push(textOf(tokens, at, end + 1))
  })
  return found
}
