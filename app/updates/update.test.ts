import { describe, expect, it } from 'vitest'
import { updateBody, updateError, updateLimits } from './update'
import { updateFooter } from './update-footer.server'

const settings = { farmName: 'Bramble Hill Farm', siteUrl: 'https://bramble.example', timeZone: 'UTC' }
const unsubscribeUrl = 'https://bramble.example/updates/unsubscribe?token=7.abc'
const yesOn = (day: string, language: string | null = null) =>
  ({ addedBy: 'visitor', subscribedAt: new Date(day), language }) as const

const mail = (text: string, name = 'Ann Baker', subscriber = yesOn('2026-11-01T10:00:00Z')) =>
  updateBody({
    text,
    farmName: 'Bramble Hill Farm',
    recipient: { name, footer: updateFooter(subscriber, settings, unsubscribeUrl) },
    unsubscribeUrl,
  })

describe('an update’s mail', () => {
  it('fills {name} and {farm}, keeps paragraphs, and ends with who sent it, why and how to leave', () => {
    const { text, html } = mail('Hello {name},\r\n\r\nEggs are back at {farm}.\nCome by.')
    expect(text).toBe(
      'Hello Ann Baker,\n\nEggs are back at Bramble Hill Farm.\nCome by.\n\n-- \n' +
        'Bramble Hill Farm (https://bramble.example) sent you this because you said yes to its updates on 1 November 2026.\n' +
        'Unsubscribe in one click: https://bramble.example/updates/unsubscribe?token=7.abc\n',
    )
    expect(html).toContain('<p style="font-size:16px;line-height:1.6;margin:0 0 16px">Hello Ann Baker,</p>')
    expect(html).toContain('Eggs are back at Bramble Hill Farm.<br>Come by.</p>')
    expect(html).toContain('<a href="https://bramble.example/updates/unsubscribe?token=7.abc"')
  })

  it('calls someone without a name "friend"', () => {
    expect(mail('Hello {name}!', ' ').text).toMatch(/^Hello friend!/)
  })

  it('turns web addresses into links, leaving a sentence’s full stop outside, and escapes everything else', () => {
    const { html } = mail('See https://bramble.example/eggs?a=1&b=2. <b>Bold</b> "quotes" & \'apostrophes\'')
    expect(html).toContain(
      'See <a href="https://bramble.example/eggs?a=1&#38;b=2" style="color:#166534">https://bramble.example/eggs?a=1&#38;b=2</a>.',
    )
    expect(html).toContain('&#60;b&#62;Bold&#60;/b&#62; &#34;quotes&#34; &#38; &#39;apostrophes&#39;')
    expect(html).not.toMatch(/<b>|javascript:/)
  })

  it('keeps a name one line of plain words: never a link, never a line break, URL-encoded inside the owner’s link', () => {
    const { text, html } = mail(
      'Hi {name}! See https://bramble.example/p?who={name}&f={farm}.',
      'Ann\u2028Bcc: https://evil.example',
    )
    expect(text).toMatch(
      /^Hi Ann Bcc: https:\/\/evil\.example! See https:\/\/bramble\.example\/p\?who=Ann%20Bcc%3A%20https%3A%2F%2Fevil\.example&f=Bramble%20Hill%20Farm\./,
    )
    expect(html).not.toContain('<a href="https://evil.example')
    expect(html).toContain(
      'href="https://bramble.example/p?who=Ann%20Bcc%3A%20https%3A%2F%2Fevil.example&#38;f=Bramble%20Hill%20Farm"',
    )
  })

  it('makes no link of a javascript: address', () => {
    expect(mail('Click javascript:alert(1) now').html).not.toContain('<a href="javascript')
  })
})

describe('what an update may hold', () => {
  it.each([
    ['', 'Some text', 'Write a subject first.'],
    ['   ', 'Some text', 'Write a subject first.'],
    ['Eggs\nHoney', 'Some text', 'A subject is one line, without tabs.'],
    ['Eggs\tHoney', 'Some text', 'A subject is one line, without tabs.'],
    ['Eggs for {friend}', 'Some text', /\{friend\} is not a placeholder/],
    ['x'.repeat(updateLimits.subject + 1), 'Some text', /A subject can be at most 200 characters; this one has 201/],
    ['Eggs', ' \n ', 'Write the update’s text first.'],
    ['Eggs', 'x'.repeat(updateLimits.text + 1), /at most 50,000 characters; this one has 50,001/],
    ['Eggs', 'Hello {friend}', /\{friend\} is not a placeholder this text can fill: use \{name\} or \{farm\}/],
  ])('refuses subject %j with text %j', (subject, text, problem) => {
    expect(updateError(subject, text)).toMatch(problem)
  })

  it('takes 50,000 characters, an emoji counted as one, and line breaks as a form sends them', () => {
    expect(updateError('x'.repeat(200), '🥚'.repeat(updateLimits.text))).toBeNull()
    expect(updateError('Eggs', `${'a'.repeat(updateLimits.text - 1)}\r\n`)).toBeNull()
  })
})

describe('why a subscriber gets updates', () => {
  const why = (subscriber: Parameters<typeof updateFooter>[0], zone = 'UTC') =>
    updateFooter(subscriber, { ...settings, timeZone: zone }, unsubscribeUrl).why
  it('says when they said yes, or that the owner added them, on the farm’s calendar', () => {
    const at = new Date('2026-11-01T10:00:00Z')
    expect(why({ addedBy: 'visitor', subscribedAt: at, language: null })).toBe(
      'Bramble Hill Farm (https://bramble.example) sent you this because you said yes to its updates on 1 November 2026.',
    )
    expect(why({ addedBy: 'owner', subscribedAt: at, language: null })).toBe(
      'Bramble Hill Farm (https://bramble.example) sent you this because you asked it for its updates on 1 November 2026, and it added you.',
    )
    // 10:00 UTC is 23:00 in Auckland (UTC+13 in summer): that day still.
    expect(why({ addedBy: 'visitor', subscribedAt: at, language: null }, 'Pacific/Auckland')).toMatch(
      /on 1 November 2026\.$/,
    )
    expect(why(yesOn('2026-11-01T11:00:00Z'), 'Pacific/Auckland')).toMatch(/on 2 November 2026\.$/)
    expect(why('test')).toBe(
      'Bramble Hill Farm (https://bramble.example) sent you this because you are its owner, and asked for a test of this update.',
    )
  })

  it('is in the language they were asked in, the mail saying so', () => {
    const { text, html } = mail('Bonjour {name} !', 'Marie', yesOn('2026-11-01T10:00:00Z', 'fr'))
    expect(text).toBe(
      'Bonjour Marie !\n\n-- \n' +
        'Bramble Hill Farm (https://bramble.example) vous envoie ce message parce que vous avez accepté de recevoir ses nouvelles le 1 novembre 2026.\n' +
        'Se désabonner en un clic : https://bramble.example/updates/unsubscribe?token=7.abc\n',
    )
    expect(html).toMatch(/^<!doctype html><html lang="fr">/)
    expect(html).toContain('style="color:#57534e">Se désabonner en un clic</a>')
    // A language the site does not speak (a restored file's) is English.
    expect(mail('Hi', 'Bo', yesOn('2026-11-01T10:00:00Z', 'fr"><script>')).html).toMatch(
      /^<!doctype html><html lang="en">/,
    )
  })
})
