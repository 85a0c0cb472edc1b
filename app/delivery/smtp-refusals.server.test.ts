import { describe, expect, it } from 'vitest'
import { mailVerdict, smtpVerdict } from './smtp-refusals.server'

const answer = (command: string, responseCode: number, response: string) => ({ command, responseCode, response })

describe('what a mail server’s answer means', () => {
  it.each([
    [answer('RCPT TO', 550, '550 5.1.1 <a@b.example>: Recipient address rejected'), 'address-gone'],
    [answer('RCPT TO', 550, '550 5.2.1 Mailbox disabled'), 'address-gone'],
    [answer('RCPT TO', 550, '550 Relaying denied'), 'recipient-refused'],
    [answer('RCPT TO', 550, '550 5.7.1 Relaying denied'), 'recipient-refused'],
    [answer('DATA', 554, '554 5.1.1 Message refused'), 'message-refused'],
    [answer('RCPT TO', 450, '450 4.1.1 Try later'), 'recipient-later'],
    [answer('RCPT TO', 450, '450 4.7.1 Too many messages from you'), 'later'],
    [answer('RCPT TO', 421, '421 closing'), 'later'],
    [answer('AUTH PLAIN', 535, '535 bad password'), 'later'],
    [answer('MAIL FROM', 550, '550 sender refused'), 'later'],
    [new Error('connect ECONNREFUSED 127.0.0.1:1'), 'later'],
    [undefined, 'later'],
  ])('%j is %s', (error, verdict) => {
    expect(smtpVerdict(error)).toBe(verdict)
  })

  it('tells the engine what each answer is, in the server’s words', () => {
    expect(mailVerdict(answer('RCPT TO', 550, '550 5.1.1 User unknown'))).toEqual({
      refused: '550 5.1.1 User unknown',
      gone: true,
    })
    expect(mailVerdict(answer('RCPT TO', 550, '550 5.7.1 Policy'))).toEqual({ refused: '550 5.7.1 Policy' })
    expect(mailVerdict(answer('DATA', 554, '554 Spam'))).toEqual({ refusedMessage: '554 Spam' })
    expect(mailVerdict(answer('RCPT TO', 452, '452 4.2.2 Mailbox full'))).toEqual({ later: '452 4.2.2 Mailbox full' })
    expect(mailVerdict(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toEqual({
      receiverDown: 'connect ECONNREFUSED 127.0.0.1:1',
    })
  })
})
