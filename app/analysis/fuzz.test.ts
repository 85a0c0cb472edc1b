// Random and hostile messages up to the 5,000-character limit: the offline reader must answer
// each one with a valid analysis, quickly, and never throw.
import { describe, expect, it } from 'vitest'
import { analysisSchema } from './analysis-schema'
import { createOfflineReader } from './offline.server'
import { defaultFarmProducts, readProductList } from './products'
import { boundRuns, longestRun } from './reading.server'

const readOffline = createOfflineReader(readProductList(defaultFarmProducts))
const sentAt = new Date('2026-06-10T09:00:00.000Z')
// The longest message the contact form accepts.
const limit = 5_000
/** Generous beside the ~1 ms a real message takes; the unbounded tokeniser took seconds. */
const mostMsPerMessage = 750

/** mulberry32: the same seed gives the same messages, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pieces = [
  '://',
  'http://',
  'https://',
  'www.',
  '.com',
  '/',
  '//',
  '?',
  '&',
  '=',
  '#',
  '@',
  '%20',
  '.',
  '..',
  '-',
  '_',
  ':',
  '!!!',
  '???',
  '$$$',
  '€',
  '😀',
  '🍐',
  '👩‍🌾',
  '\u200d',
  '\u200b',
  '\u202e',
  'ש',
  'مرحبا',
  '中文',
  'ñ',
  'é',
  'e\u0301',
  '\u0301\u0301\u0301',
  'EGGS',
  'eggs',
  'honey',
  'not',
  'no',
  'never',
  'tomorrow',
  'urgent',
  'free',
  'SEO',
  'bitcoin',
  '12345678901234567890',
  '0.5kg',
  '1/2',
  '<script>',
  '"',
  "'",
  '`',
  '\\',
  '\t',
  '\n',
  '\r\n',
  ' ',
  '  ',
  '\u00a0',
]

function hostileMessage(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!
  const length = 1 + Math.floor(next() * limit)
  const spaced = next() < 0.5
  let text = ''
  while (text.length < length) text += pick(pieces) + (spaced && next() < 0.3 ? ' ' : '')
  return text.slice(0, limit)
}

function timeRead(message: string) {
  const started = performance.now()
  const analysis = readOffline({ name: 'Fuzz', email: 'fuzz@example.com', message }, sentAt)
  return { analysis, ms: performance.now() - started }
}

describe('the offline reader under fuzzing', () => {
  it.each([
    ['`://` × 1,666', '://'.repeat(1666)],
    ['`http://` × 714', 'http://'.repeat(714)],
    ['`www.a` × 1,000', 'www.a'.repeat(1000)],
    ['slashes', '/'.repeat(limit)],
    ['one long word', 'a'.repeat(limit)],
    ['a long spaced URL list', 'http://a.example/x '.repeat(260)],
    ['combining marks on one letter', `a${'\u0301'.repeat(limit - 1)}`],
    ['emoji', '🍐'.repeat(limit / 2)],
  ])('reads %s in time with a valid analysis', (_name, message) => {
    const { analysis, ms } = timeRead(message.slice(0, limit))
    expect(analysisSchema.safeParse(analysis).success).toBe(true)
    expect(ms).toBeLessThan(mostMsPerMessage)
  })

  it('reads 150 seeded random messages, each in time with a valid analysis', () => {
    const next = random(20261122)
    const slow: Array<{ index: number; ms: number }> = []
    for (let index = 0; index < 150; index++) {
      const { analysis, ms } = timeRead(hostileMessage(next))
      expect(analysisSchema.safeParse(analysis).success, `message ${index}`).toBe(true)
      if (ms >= mostMsPerMessage) slow.push({ index, ms: Math.round(ms) })
    }
    expect(slow).toEqual([])
  })
})

describe('boundRuns', () => {
  it('cuts only runs longer than a word can be, keeping every character', () => {
    const text = `ok ${'x'.repeat(250)} fine`
    const bounded = boundRuns(text)
    expect(bounded.split(' ').map((word) => word.length)).toEqual([2, longestRun, longestRun, 50, 4])
    expect(bounded.replaceAll(' ', '')).toBe(text.replaceAll(' ', ''))
    expect(boundRuns('Any honey left? http://farm.example/honey.jpg')).toBe(
      'Any honey left? http://farm.example/honey.jpg',
    )
  })

  it('never splits a character made of two UTF-16 units', () => {
    expect(boundRuns('🍐'.repeat(150))).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })
})
