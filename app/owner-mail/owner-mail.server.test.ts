import { describe, expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { cardUrl, digestMail, leadMail, type Lead } from './owner-mail.server'

const nowhere = { publicUrl: null, timeZone: 'UTC' }
const farm = { publicUrl: 'https://farm.example', timeZone: 'UTC' }

const lead: Lead = {
  id: 41,
  name: 'Ann Baker',
  email: 'ann@example.com',
  message: 'Any honey left?\nTwo jars would be lovely.',
  analysis: honeyQuestion,
  // Sunday 23:30 UTC: Monday lunchtime in Auckland.
  createdAt: '2026-11-22T23:30:00.000Z',
}
const urgent: Lead = {
  ...lead,
  id: 42,
  name: 'Cas Dee',
  analysis: { ...honeyQuestion, urgency: { level: 'high', cues: ['today'] } },
}

describe('the owner’s mail', () => {
  it('names the visitor in the subject, marks it urgent only when the analysis says so, and replies to them', () => {
    expect(leadMail(lead, nowhere)).toMatchObject({
      subject: 'New lead from Ann Baker',
      replyTo: { name: 'Ann Baker', address: 'ann@example.com' },
    })
    expect(leadMail(urgent, nowhere).subject).toBe('[Urgent] New lead from Cas Dee')
  })

  it('carries the message, the analysis and, with the public address, a link to the card', () => {
    const mail = leadMail(lead, farm)
    expect(mail.text).toContain('Any honey left?\nTwo jars would be lovely.')
    expect(mail.text).toContain('About: product inquiry')
    expect(mail.text).toContain('Products: honey')
    expect(mail.text).toContain('Urgency: normal')
    expect(mail.text).toContain('https://farm.example/farm-sales?before=42#submission-41')
    expect(mail.html).toContain('<a href="https://farm.example/farm-sales?before=42#submission-41">')
    expect(leadMail(lead, nowhere).text).not.toContain('farm-sales')
    expect(leadMail({ ...lead, analysis: null }, nowhere).text).toContain('Analysis: none could be made')
  })

  it('says when they wrote on the farm’s clock, naming it once', () => {
    const auckland = { publicUrl: null, timeZone: 'Pacific/Auckland' }
    expect(leadMail(lead, auckland).text).toContain('When: 23 Nov 2026, 12:30 Auckland time\n')
    expect(leadMail(lead, nowhere).text).toContain('When: 22 Nov 2026, 23:30 UTC\n')
    // An answer's mail tells when the answer came.
    const answered = { ...lead, answer: { text: 'Yes please', at: '2026-11-24T01:00:00.000Z' } }
    expect(leadMail(answered, auckland).text).toContain('When: 24 Nov 2026, 14:00 Auckland time\n')
    const digest = digestMail([lead, urgent], auckland).mail
    expect(digest.text).toMatch(/^2 new leads \(times are Auckland time\):\n/)
    expect(digest.text.split('  When: 23 Nov 2026, 12:30\n')).toHaveLength(3)
    expect(digest.html).toContain('<p>2 new leads (times are Auckland time):</p>')
    expect(digest.html).toContain('When: 23 Nov 2026, 12:30 · About: product inquiry')
  })

  it('escapes what the visitor typed in the HTML part', () => {
    const html = leadMail({ ...lead, name: 'A <b>&</b>', message: '<img src=x onerror=alert(1)>' }, nowhere).html
    expect(html).toContain('A &lt;b&gt;&amp;&lt;/b&gt;')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('<img')
  })

  it('lists every lead of a digest once, with its first line and analysis', () => {
    const { mail, leads } = digestMail([lead, urgent], farm)
    expect(leads).toBe(2)
    expect(mail.subject).toBe('[Urgent] 2 new leads')
    expect(mail.replyTo).toBeUndefined()
    expect(mail.text.split('Ann Baker <ann@example.com>')).toHaveLength(2)
    expect(mail.text).toContain('Cas Dee <ann@example.com> [Urgent]')
    expect(mail.text).toContain('  Any honey left?')
    expect(mail.text).not.toContain('Two jars')
    expect(mail.text).toContain(cardUrl('https://farm.example', 42))
    expect(mail.html).toContain('<a href="mailto:ann@example.com">ann@example.com</a>')
    expect(digestMail([lead], nowhere).mail.subject).toBe('1 new lead')
  })

  it('cuts a long first line and keeps the digest under its byte cap; the rest wait for the next', () => {
    const long = { ...lead, message: `${'honey '.repeat(900)}\nsecond line` }
    const one = digestMail([long], farm).mail
    expect(one.text).toContain(`  ${'honey '.repeat(46)}hone…`)
    expect(one.text).not.toContain('honey '.repeat(60))
    const many = Array.from({ length: 5_000 }, (_, i) => ({ ...long, id: i + 1, name: 'N'.repeat(100) + i }))
    const { mail, leads } = digestMail(many, farm)
    expect(leads).toBeGreaterThan(1_000)
    expect(leads).toBeLessThan(5_000)
    expect(mail.subject).toBe(`${leads} new leads`)
    expect(Buffer.byteLength(mail.text) + Buffer.byteLength(mail.html)).toBeLessThanOrEqual(4 * 1024 * 1024)
    expect(mail.text).toContain(cardUrl('https://farm.example', leads))
    expect(mail.text).not.toContain(cardUrl('https://farm.example', leads + 1))
  })
})
