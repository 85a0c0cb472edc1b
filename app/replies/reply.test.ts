import { describe, expect, it } from 'vitest'
import type { Reply } from '#app/leads/lead'
import { deliveryWords, replyLimits, replyTextError } from './reply'

const reply: Reply = {
  id: 1,
  kind: 'reply',
  text: 'Yes',
  cut: false,
  createdAt: '2026-11-23T10:00:00.000Z',
  state: 'queued',
  sentAt: null,
  retryAt: null,
  failure: null,
  dismissed: false,
  otherSender: null,
  attachments: [],
  tooLarge: false,
  by: null,
}
const time = (iso: string) => iso.slice(11, 16)

describe('a reply', () => {
  it('must have words, and at most 20,000 characters of them (an emoji is one)', () => {
    expect(replyTextError('')).toBe('Write a reply first.')
    expect(replyTextError(' \n\t ')).toBe('Write a reply first.')
    expect(replyTextError('\u200b\u2060 ')).toBe('Write a reply first.')
    expect(replyTextError('x'.repeat(replyLimits.text))).toBeNull()
    expect(replyTextError('🥚'.repeat(replyLimits.text))).toBeNull()
    expect(replyTextError('x'.repeat(replyLimits.text + 1))).toBe(
      'A reply can be at most 20,000 characters; this one has 20,001.',
    )
  })

  it('holds no control characters and no half of an emoji, which no mail would carry as written', () => {
    for (const text of ['hi\u0000there', 'bell\u0007', 'esc\u001b[31m', 'half \ud83e', 'other half \udd5a']) {
      expect(replyTextError(text)).toBe(
        'A reply can hold letters, numbers, signs and line breaks, not control characters.',
      )
    }
    expect(replyTextError('Eggs\n\tand 🥚 honey')).toBeNull()
  })

  it('says where its mail is in the card’s words', () => {
    expect(deliveryWords(reply, time)).toBe('Queued')
    expect(deliveryWords({ ...reply, state: 'sent', sentAt: '2026-11-23T10:01:00.000Z' }, time)).toBe('Sent 10:01')
    expect(deliveryWords({ ...reply, state: 'retrying', retryAt: '2026-11-23T10:05:00.000Z' }, time)).toBe(
      'Retrying at 10:05',
    )
    expect(deliveryWords({ ...reply, state: 'failed' }, time)).toBe('Failed')
    expect(deliveryWords({ ...reply, state: 'failed', dismissed: true }, time)).toBe('Failed (dismissed)')
  })
})
