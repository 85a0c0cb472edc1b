import type { ImapFlow } from 'imapflow'
import { describe, expect, it } from 'vitest'
import type { MailBack, Mark } from './mail-back.server'
import type { MailReader } from './mail-reader.server'
import { mostHeaderBytes } from './mail-headers'
import { mailboxReader } from './mailbox-reader.server'
import { quietLog } from '#tests/support/quiet-log'

const head = (fields: string[]) => Buffer.from(`${fields.join('\r\n')}\r\n\r\n`)

/** The mail server's side as imapflow gives it, recording each fetch the reader asks for. */
function mailServer(messages: Array<{ uid: number; size: number; headers: Buffer }>) {
  const asked: string[] = []
  const open = {
    mailbox: { uidValidity: 1n },
    getMailboxLock: async () => ({ release() {} }),
    async *fetch() {
      for (const { uid, size } of messages) yield { uid, size }
    },
    async fetchOne(uid: string, query: { source: { maxLength: number } }) {
      const message = messages.find((each) => String(each.uid) === uid)!
      const head = query.source.maxLength === mostHeaderBytes
      asked.push(`${uid}:${head ? 'headers' : 'body'}`)
      const whole = Buffer.concat([message.headers, Buffer.from('Yes.')])
      return { uid: message.uid, source: whole.subarray(0, query.source.maxLength) }
    },
    messageMove: async () => ({}),
  }
  return { open: open as unknown as ImapFlow, asked }
}

describe('reading the farm’s mailbox', () => {
  it('fetches the body only of a message whose headers say it answers the farm’s mail or may be a report', async () => {
    const theFarms = '<reply.1@farm.test>'
    const { open, asked } = mailServer([
      { uid: 1, size: 900_000, headers: head(['From: s@stranger.test', 'Subject: Offer']) },
      { uid: 2, size: 900_000, headers: head(['From: s@stranger.test', 'In-Reply-To: <not-ours@x.test>']) },
      { uid: 3, size: 500, headers: head(['From: ann@remote.test', `References: <x@y.test> ${theFarms}`]) },
      { uid: 4, size: 500, headers: head(['From: MAILER-DAEMON@relay.test', 'Subject: Undelivered']) },
      { uid: 5, size: 2_000_000, headers: head(['From: ann@remote.test', `In-Reply-To: ${theFarms}`]) },
    ])
    const marks: number[] = []
    const taken: Array<{ uid: number; tooLarge: boolean | null }> = []
    const mailBack = {
      markOf: () => ({ lastUid: 0, uidValidity: 1 }),
      concerns: (fields: Map<string, string>) =>
        (fields.get('in-reply-to') ?? fields.get('references') ?? '').includes(theFarms)
          ? 'answer'
          : (fields.get('from') ?? '').startsWith('MAILER-DAEMON')
            ? 'report'
            : null,
      skip: async (mark: Mark) => void marks.push(mark.uid),
      take: async (read: { kind: string; tooLarge?: boolean }, _source: Buffer, mark: Mark) => {
        marks.push(mark.uid)
        taken.push({ uid: mark.uid, tooLarge: read.kind === 'mail' ? read.tooLarge! : null })
        return 'answer'
      },
    } as unknown as MailBack
    let rested = 0
    const readings: string[] = []
    const reader: MailReader = {
      read: async () => (readings.push('whole'), { read: { kind: 'notice' } }),
      readReport: async () => (readings.push('report'), { read: { kind: 'notice' } }),
      readHeaders: async () => (readings.push('headers'), { read: { kind: 'mail', tooLarge: true } as never }),
      rest: async () => void rested++,
      close: async () => {},
    }
    const readSoon = mailboxReader({
      open,
      at: { mailbox: 'farm', folder: 'INBOX', uidValidity: 1 },
      moveTo: null,
      password: 'secret',
      current: () => true,
      mailBack,
      reader,
      log: quietLog,
      readThrough() {},
    })
    await readSoon()
    expect(asked).toEqual(['1:headers', '2:headers', '3:headers', '3:body', '4:headers', '4:body', '5:headers'])
    expect(marks).toEqual([1, 2, 3, 4, 5])
    // The daemon's mail is read as the report it may be, nothing more; the answer over 1 MB from its headers.
    expect(readings).toEqual(['whole', 'report', 'headers'])
    expect(taken).toEqual([
      { uid: 3, tooLarge: null },
      { uid: 4, tooLarge: null },
      { uid: 5, tooLarge: true },
    ])
    // The worker ends with the round: a quiet mailbox keeps none.
    expect(rested).toBe(1)
  })
})
