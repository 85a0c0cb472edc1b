import { afterEach, describe, expect, it } from 'vitest'
import { mostAnswerCharacters } from './limits'
import { mailHeaders, whatTheHeadersSay } from './mail-headers'
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

  it('answers an unreadable mail in words, and the next is read', async () => {
    const read = await reader.read(Buffer.from([0xff, 0xfe, 0x00]))
    expect('read' in read || 'unreadable' in read).toBe(true)
    expect(await reader.read(answer('<p>Still here</p>'))).toMatchObject({ read: { text: 'Still here' } })
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
  })
})
