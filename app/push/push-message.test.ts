import { describe, expect, it } from 'vitest'
import { leadPushMessage, notificationFor, readPushMessage } from './push-message'

const lead = { id: 7, name: 'Ann Baker', aiResponse: 'Asks about eggs.' }

describe('a push about a lead', () => {
  it('tells a new lead by its analysis', () => {
    const message = leadPushMessage(lead, 'https://farm.example')
    expect(notificationFor(message)).toEqual({
      title: 'New lead: Ann Baker',
      body: 'Asks about eggs.',
      tag: 'submission-7',
    })
    expect(message).not.toHaveProperty('replied')
  })

  it('tells a visitor’s answer by its first words, under the same tag (one notification per card)', () => {
    const message = leadPushMessage(lead, null, `Yes please,\n two dozen. ${'More words. '.repeat(20)}`)
    const shown = notificationFor(message)
    expect(shown.title).toBe('Ann Baker replied')
    expect(shown.tag).toBe('submission-7')
    expect(shown.body.startsWith('Yes please, two dozen. More words.')).toBe(true)
    expect([...shown.body].length).toBeLessThanOrEqual(120)
    expect(shown.body.endsWith('…')).toBe(true)
    // What the service worker reads back keeps that it is an answer, and nothing else a stranger could add.
    expect(readPushMessage(JSON.stringify({ ...message, extra: '<b>' }))).toEqual(message)
  })
})
