import { describe, expect, it } from 'vitest'
import type { Analysis } from './analysis'
import { summarise } from './summary'

const order: Analysis = {
  intents: ['order', 'pricing'],
  products: ['eggs', 'honey'],
  sentiment: { label: 'neutral', score: 0 },
  urgency: { level: 'high', cues: ['tomorrow'] },
  spam: { isSpam: false, reasons: [] },
  source: 'offline',
}

const sentences = (text: string) => text.split(/(?<=\.)\s+/)

describe('summarise', () => {
  it('says who wants what, how soon, and what to do, in three sentences', () => {
    const text = summarise(order, ' Maggie  Holt ')
    expect(text).toBe(
      'Maggie Holt wants to order eggs and honey, and also asks about prices. ' +
        'Urgent: they mention "tomorrow". ' +
        'Reply today: confirm what you can set aside and when they can collect.',
    )
    expect(sentences(text)).toHaveLength(3)
  })

  it('mentions an unhappy visitor and suggests making it right', () => {
    const complaint: Analysis = {
      ...order,
      intents: ['complaint'],
      products: ['milk'],
      sentiment: { label: 'negative', score: -0.8 },
      urgency: { level: 'normal', cues: [] },
    }
    expect(summarise(complaint, 'Alison')).toBe(
      'Alison has a complaint about milk. Not urgent and sounds unhappy. ' +
        'Suggested reply: apologise and offer a replacement or refund.',
    )
  })

  it('tells the owner to skip spam, in two sentences', () => {
    const spam: Analysis = { ...order, intents: ['other'], spam: { isSpam: true, reasons: ['links', 'gibberish'] } }
    expect(summarise(spam, 'x')).toBe('Looks like spam (links and gibberish). No reply needed.')
  })
})
