import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { trimQuotedHistory } from './quoted-history'
import { readBack } from './read-back.server'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))
const mail = (headers: string[], body: string) => Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body}`)

describe('bounces', () => {
  it('reads Postfix’s RFC 3464 report: the address, the status, the remote server’s words and the returned mail’s Message-ID', async () => {
    expect(await readBack(fixture('postfix-bounce.eml'))).toEqual({
      kind: 'bounce',
      about: ['<upd-1@farm.test>'],
      failures: [
        {
          address: 'gone@remote.test',
          status: '5.1.1',
          permanent: true,
          words: '550 5.1.1 <gone@remote.test>: Recipient address rejected: User unknown',
        },
      ],
    })
  })

  it('reads Gmail’s report', async () => {
    expect(await readBack(fixture('gmail-bounce.eml'))).toMatchObject({
      kind: 'bounce',
      about: ['<mwxwibwd.gmailcase@farm.test>'],
      failures: [{ address: 'nobody@gmail.com', status: '5.1.1', permanent: true }],
    })
  })

  it('reads Microsoft’s full mailbox as a temporary failure, from the quoted headers alone', async () => {
    expect(await readBack(fixture('microsoft-full-mailbox.eml'))).toMatchObject({
      kind: 'bounce',
      about: ['<update.fedcba9876543210fedcba9876543210@farm.test>'],
      failures: [{ address: 'full@outlook.com', status: '4.2.2', permanent: false }],
    })
  })

  it('reads Exim’s plain-text bounce by X-Failed-Recipients and the copy of the message it quotes', async () => {
    expect(await readBack(fixture('exim-bounce.eml'))).toMatchObject({
      kind: 'bounce',
      about: ['<update.0123456789abcdef0123456789abcdef@farm.test>'],
      failures: [{ address: 'gone@isp.example', status: '5.1.1', permanent: true }],
    })
  })

  it('does not take a person’s mail about a delivery for a bounce', async () => {
    const read = await readBack(
      mail(
        ['From: Ann <ann@remote.test>', 'Subject: Undeliverable parcel?', 'In-Reply-To: <a.b@farm.test>'],
        'The parcel did not come.',
      ),
    )
    expect(read.kind).toBe('mail')
  })
})

describe('complaints', () => {
  it('reads an ARF report: the address from Original-Rcpt-To, the mail from its quoted headers', async () => {
    const report = mail(
      [
        'From: fbl@isp.example',
        'To: farm@farm.test',
        'Subject: FW: Asparagus',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="b"',
      ],
      [
        '--b',
        'Content-Type: text/plain',
        '',
        'An abuse report.',
        '--b',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'Version: 1',
        'Original-Rcpt-To: <Dan@Remote.test>',
        '--b',
        'Content-Type: message/rfc822',
        '',
        'To: dan@remote.test',
        'Message-ID: <update.00000000000000000000000000000000@farm.test>',
        '',
        'Hello',
        '--b--',
      ].join('\r\n'),
    )
    expect(await readBack(report)).toEqual({
      kind: 'complaint',
      about: ['<update.00000000000000000000000000000000@farm.test>'],
      address: 'dan@remote.test',
    })
  })
})

describe('answers', () => {
  it('keeps what they wrote, the Message-IDs it answers (latest first), its files by name and size, and when it was written', async () => {
    const read = await readBack(
      mail(
        [
          'From: "Ann Baker" <Ann@Remote.test>',
          'Subject: Re: Eggs',
          'In-Reply-To: <b@farm.test>',
          'References: <a@farm.test> <b@farm.test>',
          'Message-ID: <m@remote.test>',
          'Date: Thu, 26 Nov 2026 10:00:00 +0000',
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="m"',
        ],
        [
          '--m',
          'Content-Type: text/plain',
          '',
          'Two dozen, please.',
          '',
          '> Yes, we have eggs.',
          '--m',
          'Content-Type: application/pdf; name="order.pdf"',
          'Content-Disposition: attachment; filename="order.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          Buffer.from('%PDF-1.4 order').toString('base64'),
          '--m--',
        ].join('\r\n'),
      ),
    )
    expect(read).toEqual({
      kind: 'mail',
      automatic: false,
      from: { name: 'Ann Baker', address: 'ann@remote.test' },
      answers: ['<b@farm.test>', '<a@farm.test>'],
      messageId: '<m@remote.test>',
      subject: 'Re: Eggs',
      text: 'Two dozen, please.',
      tooLarge: false,
      attachments: [{ name: 'order.pdf', bytes: 14 }],
      sentAt: new Date('2026-11-26T10:00:00Z'),
    })
  })

  it('turns an HTML-only answer to text: no markup, no script', async () => {
    const read = await readBack(
      mail(
        ['From: a@remote.test', 'In-Reply-To: <b@farm.test>', 'Content-Type: text/html'],
        '<p>Yes <b>please</b></p><script>alert(1)</script><img src=x onerror=alert(2)>',
      ),
    )
    const text = read.kind === 'mail' ? read.text : ''
    expect(text.split('\n')[0]).toBe('Yes please')
    expect(text).not.toMatch(/[<>]|alert|script|onerror/)
  })

  it.each([
    [['Auto-Submitted: auto-replied']],
    [['X-Autoreply: yes']],
    [['Precedence: bulk']],
    [['Precedence: auto_reply']],
    [['Subject: Out of Office: Re: eggs']],
  ])('marks %j as an automatic answer', async (headers) => {
    const read = await readBack(mail(['From: a@remote.test', 'In-Reply-To: <b@farm.test>', ...headers], 'Away.'))
    expect(read).toMatchObject({ kind: 'mail', automatic: true })
  })

  it('marks Outlook’s automatic reply, and not a person’s answer that says Auto-Submitted: no', async () => {
    expect(await readBack(fixture('vacation.eml'))).toMatchObject({ kind: 'mail', automatic: true })
    const person = await readBack(mail(['From: a@remote.test', 'Auto-Submitted: no', 'Subject: Re: eggs'], 'Yes.'))
    expect(person).toMatchObject({ kind: 'mail', automatic: false })
  })
})

describe('the quoted history', () => {
  it.each([
    ['Yes please.\n\nOn Thu, 26 Nov 2026 at 10:00, Farm <farm@farm.test> wrote:\n> We have eggs.', 'Yes please.'],
    ['Yes please.\nOn Thu, 26 Nov 2026 at 10:00, Bramble Hill Farm\n<farm@farm.test> wrote:\n> eggs', 'Yes please.'],
    ['Yes please.\n\n-----Original Message-----\nFrom: Farm\nSent: Thursday', 'Yes please.'],
    ['Yes please.\n\n________________________________\nFrom: Farm <farm@farm.test>\nSent: Thursday', 'Yes please.'],
    ['Oui.\n\nLe jeu. 26 nov. 2026 à 10:00, Farm <farm@farm.test> a écrit :\n> eggs', 'Oui.'],
    ['Ja.\n\nAm Do., 26. Nov. 2026 um 10:00 Uhr schrieb Farm <farm@farm.test>:\n> Eier', 'Ja.'],
    ['Sí.\n\nEl jue, 26 nov 2026 a las 10:00, Farm (<farm@farm.test>) escribió:\n> huevos', 'Sí.'],
    ['Sì.\n\nIl giorno gio 26 nov 2026 alle ore 10:00 Farm <farm@farm.test> ha scritto:\n> uova', 'Sì.'],
    ['Ja.\n\nOp do 26 nov 2026 om 10:00 schreef Farm <farm@farm.test>:\n> eieren', 'Ja.'],
    ['Sim.\n\nEm qui., 26 de nov. de 2026 às 10:00, Farm <farm@farm.test> escreveu:\n> ovos', 'Sim.'],
    ['Sim.\nEm qui., 26 de nov. de 2026 às 10:00, Quinta do Monte\n<farm@farm.test> escreveu:\n> ovos', 'Sim.'],
    ['Ja.\n\nVon: Farm <farm@farm.test>\nGesendet: Donnerstag, 26. November 2026 10:00', 'Ja.'],
    ['Oui.\n\nDe : Farm <farm@farm.test>\nEnvoyé : jeudi 26 novembre 2026 10:00', 'Oui.'],
    ['Sì.\n\n-----Messaggio originale-----\nDa: Farm', 'Sì.'],
    // A line a person wrote that only begins like a header is theirs.
    ['Da: lunedì ci sono.\nGrazie', 'Da: lunedì ci sono.\nGrazie'],
    ['Op zaterdag kom ik langs.\nTot dan', 'Op zaterdag kom ik langs.\nTot dan'],
    ['Yes please.\n\n> We have eggs.\n> On Saturday.', 'Yes please.'],
    ['> Do you have eggs?\nYes, we do.', '> Do you have eggs?\nYes, we do.'],
  ])('keeps what was written of %j', (text, written) => {
    expect(trimQuotedHistory(text)).toBe(written)
  })

  it('keeps a mail that is all quote as it is, rather than nothing', () => {
    expect(trimQuotedHistory('> only a quote')).toBe('> only a quote')
  })
})
