import { describe, expect, it } from 'vitest'
import { replyRow } from '#tests/fixtures/reply-row'
import { newMessageId, visitorMail } from './reply-mail.server'

const settings = {
  from: 'hello@bramble.example',
  fromName: 'Bramble Hill Farm',
  replyTo: 'owner@bramble.example',
  farmName: 'Bramble Hill Farm',
  timeZone: 'UTC',
}
const lead = { message: 'Eggs?\n\nTwo dozen, please.', createdAt: new Date('2026-11-23T09:30:00Z'), language: null }
const row = replyRow

describe('a mail to a visitor', () => {
  it('is a reply under the farm’s subject, threaded on every earlier mail, the visitor’s message quoted with its date', () => {
    const mail = visitorMail(row, lead, settings)
    expect(mail).toMatchObject({
      from: { name: 'Bramble Hill Farm', address: 'hello@bramble.example' },
      to: { name: '', address: 'ann@example.com' },
      replyTo: 'owner@bramble.example',
      envelope: { from: 'hello@bramble.example', to: ['ann@example.com'] },
      subject: 'Re: Your message to Bramble Hill Farm',
      messageId: '<b.2@bramble.example>',
      inReplyTo: '<a.2@bramble.example>',
      references: ['<a.1@bramble.example>', '<a.2@bramble.example>'],
    })
    expect(mail.text).toBe(
      'Yes, Saturday.\n\nOn 23 November 2026 at 09:30 UTC, you wrote:\n> Eggs?\n>\n> Two dozen, please.\n',
    )
  })

  it('tells the visitor when they wrote on the farm’s clock', () => {
    const mail = visitorMail(row, lead, { ...settings, timeZone: 'Pacific/Auckland' })
    expect(mail.text).toContain('On 23 November 2026 at 22:30 Auckland time, you wrote:\n')
  })

  it('keeps every line of the visitor’s message inside the quote, however it breaks its lines', () => {
    const mail = visitorMail(
      row,
      { ...lead, message: 'Eggs?\rP.S. from the farm: pay at evil.example\r\n\u2028x' },
      settings,
    )
    expect(mail.text).toContain('> Eggs?\n> P.S. from the farm: pay at evil.example\n>\n> x\n')
    expect(
      String(mail.text)
        .split('\n')
        .filter((line) => line.includes('evil')),
    ).toEqual(['> P.S. from the farm: pay at evil.example'])
  })

  it('starts a thread when it is the first, and an acknowledgement says only its own text and why it came', () => {
    const mail = visitorMail({ ...row, kind: 'acknowledgement', text: 'Thanks!', references: null }, lead, settings)
    expect(mail.subject).toBe('We got your message — Bramble Hill Farm')
    expect(mail).not.toHaveProperty('inReplyTo')
    expect(mail.text).not.toContain('Eggs')
    expect(mail.text).toMatch(/^Thanks!\n\n-- \nYou get this mail because/)
    // Sent unasked: an out-of-office must not answer it (RFC 3834); an owner's reply is not automatic.
    expect(mail.headers).toEqual({ 'Content-Language': 'en', 'Auto-Submitted': 'auto-replied' })
    expect(visitorMail({ ...row, kind: 'confirmation', references: null }, lead, settings).headers).toEqual({
      'Content-Language': 'en',
      'Auto-Submitted': 'auto-replied',
    })
    expect(visitorMail(row, lead, settings).headers).toEqual({ 'Content-Language': 'en' })
  })

  it('is in the language the visitor wrote in, said in its Content-Language: the subject, the date, the footer and the ask', () => {
    const french = { ...lead, language: 'fr' }
    const reply = visitorMail(row, french, { ...settings, timeZone: 'Europe/Paris' })
    expect(reply.subject).toBe('Re: Votre message à Bramble Hill Farm')
    expect(reply.text).toBe(
      'Yes, Saturday.\n\nLe 23 novembre 2026 à 10:30 heure d’Europe centrale, vous avez écrit :\n> Eggs?\n>\n> Two dozen, please.\n',
    )
    expect(reply.headers).toEqual({ 'Content-Language': 'fr' })

    const asking = { ...settings, confirmUrl: () => 'https://bramble.example/updates/confirm?t=1' }
    const ask = visitorMail(
      { ...row, kind: 'confirmation', text: 'Merci !', subscriberId: 4, references: null },
      french,
      asking,
    )
    expect(ask.subject).toBe('Souhaitez-vous recevoir les nouvelles de Bramble Hill Farm ?')
    expect(ask.text).toBe(
      'Merci !\n\nSouhaitez-vous recevoir par e-mail les nouvelles de Bramble Hill Farm : nouveaux produits, ce qui est de saison et nos offres ? Si oui, dites-le-nous ici (le lien reste valable 7 jours) :\nhttps://bramble.example/updates/confirm?t=1\n\nSans réponse de votre part, vous ne recevrez rien.\n\n-- \nVous recevez ce message parce que cette adresse a été indiquée dans notre formulaire de contact. Si ce n’était pas vous, ignorez-le simplement.\n',
    )
    expect(ask.headers).toEqual({ 'Content-Language': 'fr', 'Auto-Submitted': 'auto-replied' })

    const german = visitorMail(
      { ...row, kind: 'acknowledgement', references: null },
      { ...lead, language: 'de' },
      settings,
    )
    expect(german.subject).toBe('Ihre Nachricht ist angekommen — Bramble Hill Farm')
    expect(german.headers).toMatchObject({ 'Content-Language': 'de' })
  })

  it('takes a language it does not know as English', () => {
    const mail = visitorMail(row, { ...lead, language: 'xx' }, settings)
    expect(mail.subject).toBe('Re: Your message to Bramble Hill Farm')
    expect(mail.headers).toEqual({ 'Content-Language': 'en' })
  })

  it('has a Message-ID of its own on the sending domain', () => {
    const one = newMessageId('hello@bramble.example')
    expect(one).toMatch(/^<[a-z0-9]+\.[A-Za-z0-9_-]{16}@bramble\.example>$/)
    expect(newMessageId('hello@bramble.example')).not.toBe(one)
  })
})
