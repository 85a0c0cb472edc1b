// Random and hostile messages up to the 5,000-character limit: the offline reader must answer
// each one with a valid analysis and never throw. How long the slowest takes is npm run
// bench:analysis's row, beside the same reading of ordinary messages.
import { describe, expect, it } from 'vitest'
import { analysisSchema } from './analysis-schema'
import { hostileMessages, messageLimit, seededHostileMessages } from '#tests/fixtures/hostile-messages'
import { createOfflineReader } from './offline.server'
import { defaultFarmProducts, readProductList } from './products'
import { boundRuns, longestRun } from './reading.server'

const readOffline = createOfflineReader(readProductList(defaultFarmProducts))
const sentAt = new Date('2026-06-10T09:00:00.000Z')
const read = (message: string) => readOffline({ name: 'Fuzz', email: 'fuzz@example.com', message }, sentAt)

describe('the offline reader under fuzzing', () => {
  it.each(hostileMessages)('reads %s with a valid analysis', (_name, message) => {
    expect(message.length).toBeLessThanOrEqual(messageLimit)
    expect(analysisSchema.safeParse(read(message)).success).toBe(true)
  })

  it('reads 150 seeded random messages, each with a valid analysis', () => {
    const messages = seededHostileMessages()
    expect(messages).toHaveLength(150)
    messages.forEach((message, index) => {
      expect(analysisSchema.safeParse(read(message)).success, `message ${index}`).toBe(true)
    })
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
