import { describe, expect, it } from 'vitest'
import { refusedForGood, smtpVerdict } from './smtp-refusals'

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

  it('takes a 5xx at RCPT TO or DATA as this mail refused for good, and nothing else', () => {
    expect(refusedForGood(smtpVerdict(answer('DATA', 554, '554 refused')))).toBe(true)
    expect(refusedForGood(smtpVerdict(answer('RCPT TO', 550, '550 no')))).toBe(true)
    expect(refusedForGood(smtpVerdict(answer('AUTH PLAIN', 535, '535 bad password')))).toBe(false)
    expect(refusedForGood(smtpVerdict(answer('RCPT TO', 421, '421 closing')))).toBe(false)
    expect(refusedForGood(smtpVerdict(answer('RCPT TO', 450, '450 4.2.2 Mailbox full')))).toBe(false)
  })
})
