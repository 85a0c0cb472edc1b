import { describe, expect, it } from 'vitest'
import { isPermanentRefusal, isRefusedAddress } from './mail-refusals'

const answer = (command: string, responseCode: number, response: string) => ({ command, responseCode, response })

describe('what a mail server’s refusal means', () => {
  it.each([
    [answer('RCPT TO', 550, '550 5.1.1 <a@b.example>: Recipient address rejected'), true],
    [answer('RCPT TO', 550, '550 5.2.1 Mailbox disabled'), true],
    [answer('RCPT TO', 550, '550 Relaying denied'), false],
    [answer('RCPT TO', 550, '550 5.7.1 Relaying denied'), false],
    [answer('DATA', 554, '554 5.1.1 Message refused'), false],
    [answer('RCPT TO', 450, '450 4.1.1 Try later'), false],
  ])('%j is the address gone for good: %s', (error, gone) => {
    expect(isRefusedAddress(error)).toBe(gone)
  })

  it('takes a 5xx at RCPT TO or DATA as this mail refused for good, and nothing else', () => {
    expect(isPermanentRefusal(answer('DATA', 554, '554 refused'))).toBe(true)
    expect(isPermanentRefusal(answer('RCPT TO', 550, '550 no'))).toBe(true)
    expect(isPermanentRefusal(answer('AUTH PLAIN', 535, '535 bad password'))).toBe(false)
    expect(isPermanentRefusal(answer('RCPT TO', 421, '421 closing'))).toBe(false)
  })
})
