import { afterEach, describe, expect, it } from 'vitest'
import { mostAnswerCharacters } from './limits'
import { mailHeaders, tooLargeFromHeaders, whatTheHeadersSay } from './mail-headers'
import { createMailReader, mailReadingLimitMs } from './mail-reader.server'

const workerUrl = new URL('./mail-reader-worker.mjs', import.meta.url)
const answer = (html: string) =>
  Buffer.from(
    [
      'From: Hal <hal@remote.test>',
      'To: farm@farm.test',
      'Subject: Re: hay',
      'In-Reply-To: <reply.1@farm.test>',
      'Message-ID: <hal-1@remote.test>',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
    ].join('\r\n'),
  )
/** Just under the 1 MB the site reads. */
const almostOneMb = (piece: string) => piece.repeat(Math.floor((1024 * 1024 - 300) / piece.length))

const reader = createMailReader({ workerUrl })
afterEach(() => reader.rest())

describe('the mail reader', () => {
  it('reads an answer in its worker, as the mail-back service takes it', async () => {
    expect(await reader.read(answer('<p>Two <b>dozen</b>, please</p>'))).toEqual({
      read: expect.objectContaining({
        kind: 'mail',
        from: { name: 'Hal', address: 'hal@remote.test' },
        answers: ['<reply.1@farm.test>'],
        text: 'Two dozen, please',
        tooLarge: false,
      }),
    })
  })

  it('reads 1 MB of unclosed list items (11 s on the site’s thread before) as a cut text', async () => {
    const read = await reader.read(answer(almostOneMb('<li>a')))
    expect(read).toMatchObject({ read: { kind: 'mail', tooLarge: false } })
    if (!('read' in read) || read.read.kind !== 'mail') throw new Error('not read')
    expect(read.read.text.startsWith('aaaa')).toBe(true)
    expect([...read.read.text].length).toBeLessThanOrEqual(mostAnswerCharacters)
  })

  it('keeps the text of 1 MB of rules (21 MB of text before) within what an answer keeps', async () => {
    const read = await reader.read(answer(almostOneMb('<hr>')))
    if (!('read' in read) || read.read.kind !== 'mail') throw new Error('not read')
    expect([...read.read.text].length).toBeLessThanOrEqual(mostAnswerCharacters)
  })

  it('gives up a mail whose reading takes past its limit, while the site’s own thread runs on', async () => {
    let ticks = 0
    const ticking = setInterval(() => ticks++, 10)
    const read = await reader.read(answer(almostOneMb('<ul><li>a')))
    clearInterval(ticking)
    expect(read).toEqual({ pastLimit: `its reading took over ${mailReadingLimitMs / 1000} s` })
    // The thread that asked was free all along: its timer ran while the worker read.
    expect(ticks).toBeGreaterThan(10)
    // A fresh worker reads the next mail.
    expect(await reader.read(answer('<p>Yes</p>'))).toMatchObject({ read: { text: 'Yes' } })
  })

  it('reads a mail past a limit from its headers alone: who, what it answers, its subject, no text', async () => {
    const head = answer('').subarray(0, answer('').indexOf('\r\n\r\n') + 4)
    expect(await reader.readHeaders(head)).toEqual({
      read: expect.objectContaining({
        kind: 'mail',
        from: { name: 'Hal', address: 'hal@remote.test' },
        answers: ['<reply.1@farm.test>'],
        subject: 'Re: hay',
        text: '',
        attachments: [],
        tooLarge: true,
      }),
    })
  })

  it('reads a mail let in only as a possible report as a report, never its HTML: else a notice', async () => {
    const forged = Buffer.from(
      `From: postmaster@stranger.test\r\nContent-Type: text/html\r\n\r\n${almostOneMb('<ul><li>a')}`,
    )
    expect(await reader.readReport(forged)).toEqual({ read: { kind: 'notice' } })
  })

  it('reads each mail in its turn: one asked during another’s reading, or a rest asked meanwhile, spoils neither', async () => {
    const slow = reader.read(answer(almostOneMb('<ul><li>a')))
    const small = reader.read(answer('<p>Ten bales, please.</p>'))
    void reader.rest()
    expect(await slow).toMatchObject({ pastLimit: expect.any(String) })
    expect(await small).toMatchObject({ read: { text: 'Ten bales, please.' } })
    const again = reader.read(answer('<p>And hay.</p>'))
    void reader.rest()
    expect(await again).toMatchObject({ read: { text: 'And hay.' } })
  })

  it('when the site stops, a mail being read is not taken, and none is read after', async () => {
    const closing = createMailReader({ workerUrl })
    const reading = closing.read(answer(almostOneMb('<ul><li>a')))
    await new Promise((resolve) => setTimeout(resolve, 300))
    await closing.close()
    expect(await reading).toEqual({ stopped: true })
    expect(await closing.read(answer('<p>Yes</p>'))).toEqual({ stopped: true })
  })

  it('survives a worker that falls over while idle, and reads the next mail with a fresh one', async () => {
    const shaky = createMailReader({
      workerUrl: new URL('../../tests/support/failing-mail-worker.mjs', import.meta.url),
    })
    expect(await shaky.read(answer('<p>One</p>'))).toEqual({ read: { kind: 'notice' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Had the fall reached the process, this test would not be running.
    expect(await shaky.read(answer('<p>Two</p>'))).toEqual({ read: { kind: 'notice' } })
    await shaky.close()
  })
})

describe('what the headers alone say', () => {
  it('names the mails a message answers and whether it may be a report, from folded fields, first of each', () => {
    const fields = mailHeaders(
      Buffer.from(
        [
          'From: "Mail Delivery System"',
          ' <MAILER-DAEMON@relay.example>',
          'In-Reply-To: <a@farm.test>',
          'References: <r1@farm.test>',
          '\t<r2@farm.test>',
          'In-Reply-To: <forged@farm.test>',
          '',
          'In-Reply-To: <in-the-body@farm.test>',
        ].join('\r\n'),
      ),
    )
    expect(whatTheHeadersSay(fields)).toEqual({
      mayBeReport: true,
      answers: ['<a@farm.test>', '<r2@farm.test>', '<r1@farm.test>'],
    })
    expect(
      whatTheHeadersSay(
        mailHeaders(Buffer.from('Content-Type: multipart/report; report-type=delivery-status\r\n\r\n')),
      ),
    ).toEqual({ mayBeReport: true, answers: [] })
    expect(whatTheHeadersSay(mailHeaders(Buffer.from('From: ann@remote.test\r\nSubject: hi\r\n\r\n')))).toEqual({
      mayBeReport: false,
      answers: [],
    })
    // Not reports: a daemon's name in the display name only, or a report type with no report-type.
    for (const forged of [
      'From: "x postmaster@evil.test" <a@stranger.test>',
      'From: MAILER-DAEMON@relay.example.evil <a@stranger.test>',
      'Content-Type: multipart/report; boundary="b"',
    ]) {
      expect(whatTheHeadersSay(mailHeaders(Buffer.from(`${forged}\r\n\r\n`))).mayBeReport).toBe(false)
    }
  })

  it('keeps an answer whose headers could not be read either, as the raw headers say it', () => {
    const fields = mailHeaders(
      Buffer.from(
        'From: Ivy <Ivy@Remote.test>\r\nSubject: Re:\r\n  plums\r\nIn-Reply-To: <reply.1@farm.test>\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\n\r\n',
      ),
    )
    expect(tooLargeFromHeaders(fields)).toEqual({
      kind: 'mail',
      automatic: false,
      from: { name: '', address: 'ivy@remote.test' },
      answers: ['<reply.1@farm.test>'],
      messageId: null,
      subject: 'Re: plums',
      text: '',
      tooLarge: true,
      attachments: [],
      sentAt: new Date('2026-11-26T10:00:00Z'),
    })
  })
})
