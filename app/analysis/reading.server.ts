import winkNLP, { type ItemSentence, type ItsFunction } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { foldAccents } from './fold-accents'

// The English model ships inside the package: loading it reads no network and
// takes a few tens of milliseconds, once, when the server starts.
const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment', 'pos'])
const its = nlp.its

export interface Word {
  /** As typed, after folding accents. */
  text: string
  /** Lower case, British spellings turned American by the model ("centre" → "center"). */
  normal: string
  /** Dictionary form: "strawberries" → "strawberry", "bought" → "buy". */
  lemma: string
  pos: string
  /** Inside the reach of a "not", "no" or "never". */
  negated: boolean
  spaceBefore: string
  sentence: number
}

export interface Sentence {
  start: number
  /** Exclusive. */
  end: number
  /** The model's sentiment, from -1 to 1. */
  sentiment: number
  question: boolean
}

export interface Reading {
  words: Word[]
  sentences: Sentence[]
}

/**
 * wink's tokeniser takes time that grows with about the cube of an unbroken run's length when
 * the run looks like a URL (`://` × 1,600: seconds). No word is this long, so longer runs are
 * cut into pieces of this length before it sees them, which keeps reading time linear.
 */
export const longestRun = 100
const overlongRun = new RegExp(`\\S{${longestRun + 1},}`, 'gu')
const piece = new RegExp(`\\S{${longestRun}}(?=\\S)`, 'gu')

export function boundRuns(text: string): string {
  return text.replace(overlongRun, (run) => run.replace(piece, '$& '))
}

/** French and Italian elide an article into the next word ("d'œufs", "l'ordine"): the word is read on its own. */
const elision = /(?<![\p{L}'’])(d|l|j|m|n|s|t|c|qu|dell|dall|nell|sull|all|un)['’](?=\p{L})/giu

export function read(text: string): Reading {
  const doc = nlp.readDoc(boundRuns(foldAccents(text)).replace(elision, '$1 '))
  const tokens = doc.tokens()
  const values = tokens.out(its.value) as string[]
  const normals = tokens.out(its.normal) as string[]
  // wink's typings disagree with themselves about the lemma helper's arguments.
  const lemmas = tokens.out(its.lemma as unknown as ItsFunction<string>) as string[]
  const tags = tokens.out(its.pos) as string[]
  const negations = tokens.out(its.negationFlag) as unknown as boolean[]
  const spaces = tokens.out(its.precedingSpaces) as string[]
  const sentences: Sentence[] = []
  const words: Word[] = values.map((value, index) => ({
    text: value,
    normal: normals[index] ?? value.toLowerCase(),
    lemma: lemmas[index] ?? value.toLowerCase(),
    pos: tags[index] ?? 'X',
    negated: negations[index] === true,
    spaceBefore: spaces[index] ?? '',
    sentence: 0,
  }))
  doc.sentences().each((sentence: ItemSentence) => {
    const [start = 0, last = 0] = sentence.out(its.span) as unknown as number[]
    const index = sentences.length
    for (let at = start; at <= last; at++) {
      const word = words[at]
      if (word) word.sentence = index
    }
    sentences.push({
      start,
      end: last + 1,
      sentiment: Number(sentence.out(its.sentiment)),
      question: words.slice(start, last + 1).some((word) => word.text === '?'),
    })
  })
  return { words, sentences }
}

/** The model's sentiment of a few words on their own, e.g. to see which words it finds loaded. */
export function sentimentOf(text: string): number {
  return Number(nlp.readDoc(boundRuns(foldAccents(text))).out(its.sentiment))
}

interface WordPattern {
  keys: Set<string>
  any: boolean
  fuzzy: boolean
  /** "Lambing" and "milking" are work, not lamb and milk. */
  nounsOnly: boolean
}

interface Phrase<T> {
  words: WordPattern[]
  value: T
}

export interface PhraseMatch<T> {
  value: T
  start: number
  /** Exclusive. */
  end: number
}

export interface PhraseEntry<T> {
  /**
   * Words to find in a row. `*` stands for any one word; a leading `=` matches
   * the words only as written ("=offers" is not "we offer"); a leading `~`
   * also accepts a slip of one letter in words of six letters or more.
   */
  phrase: string
  value: T
}

const fuzzyFrom = 6

function closeEnough(typed: string, known: string): boolean {
  if (typed.length < fuzzyFrom || known.length < fuzzyFrom - 1 || typed[0] !== known[0]) return false
  const allowed = typed.length >= 9 && known.length >= 9 ? 2 : 1
  return editDistance(typed, known, allowed) <= allowed
}

/** Optimal string alignment distance (a swap of two letters counts once), giving up past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1)
      }
      current.push(value)
      best = Math.min(best, value)
    }
    if (best > limit) return limit + 1
    before = previous
    previous = current
  }
  return previous[b.length] ?? limit + 1
}

function wordMatches(pattern: WordPattern, word: Word): boolean {
  if (pattern.any) return true
  if (pattern.keys.has(word.normal)) return true
  if (pattern.keys.has(word.lemma)) return !(pattern.nounsOnly && word.normal.endsWith('ing'))
  if (!pattern.fuzzy) return false
  for (const key of pattern.keys) if (closeEnough(word.normal, key)) return true
  return false
}

/**
 * Finds known phrases in a reading, longest first and without overlaps. The
 * phrases are read by the same model as the messages, so "strawberries" in
 * the list finds "strawberry" in a message and the other way round.
 */
export class PhraseIndex<T> {
  readonly #byFirstWord = new Map<string, Phrase<T>[]>()
  readonly #fuzzyByLetter = new Map<string, Phrase<T>[]>()

  readonly #nounsOnly: boolean

  /** With `nounsOnly`, a word ending in "-ing" is not taken for its stem. */
  constructor(entries: Iterable<PhraseEntry<T>>, { nounsOnly = false } = {}) {
    this.#nounsOnly = nounsOnly
    for (const entry of entries) this.#add(entry)
    for (const phrases of [...this.#byFirstWord.values(), ...this.#fuzzyByLetter.values()]) {
      phrases.sort((a, b) => b.words.length - a.words.length)
    }
  }

  #add({ phrase, value }: PhraseEntry<T>) {
    const exact = phrase.startsWith('=')
    const fuzzy = phrase.startsWith('~')
    const { words } = read(exact || fuzzy ? phrase.slice(1) : phrase)
    const patterns: WordPattern[] = words
      .filter((word) => word.pos !== 'PUNCT' || word.text === '*')
      .map((word) => ({
        keys: new Set(exact ? [word.normal] : [word.normal, word.lemma]),
        any: word.text === '*',
        fuzzy,
        nounsOnly: this.#nounsOnly,
      }))
    const first = patterns[0]
    if (!first || first.any) throw new Error(`A phrase must start with a word: "${phrase}"`)
    const entry = { words: patterns, value }
    for (const key of first.keys) {
      const list = this.#byFirstWord.get(key) ?? []
      if (!list.includes(entry)) list.push(entry)
      this.#byFirstWord.set(key, list)
    }
    if (fuzzy) {
      for (const letter of new Set([...first.keys].map((key) => key[0] ?? ''))) {
        const list = this.#fuzzyByLetter.get(letter) ?? []
        list.push(entry)
        this.#fuzzyByLetter.set(letter, list)
      }
    }
  }

  find(words: Word[]): PhraseMatch<T>[] {
    const found: PhraseMatch<T>[] = []
    const content = words.filter((word) => word.pos !== 'PUNCT')
    const positions = words.flatMap((word, index) => (word.pos === 'PUNCT' ? [] : [index]))
    for (let at = 0; at < content.length;) {
      const word = content[at] as Word
      const candidates = [
        ...(this.#byFirstWord.get(word.normal) ?? []),
        ...(word.lemma === word.normal ? [] : (this.#byFirstWord.get(word.lemma) ?? [])),
        ...(this.#fuzzyByLetter.get(word.normal[0] ?? '') ?? []),
      ]
      let best: Phrase<T> | undefined
      for (const phrase of candidates) {
        if (best && phrase.words.length <= best.words.length) continue
        const fits = phrase.words.every((pattern, offset) => {
          const next = content[at + offset]
          return next !== undefined && next.sentence === word.sentence && wordMatches(pattern, next)
        })
        if (fits) best = phrase
      }
      if (!best) {
        at++
        continue
      }
      const start = positions[at] as number
      const end = (positions[at + best.words.length - 1] as number) + 1
      found.push({ value: best.value, start, end })
      at += best.words.length
    }
    return found
  }
}
