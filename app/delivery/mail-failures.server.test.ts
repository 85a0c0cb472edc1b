import { describe, expect, it } from 'vitest'
import { mailFailure } from './mail-failures.server'
import { mailProviders } from '#app/settings/mail-providers'

const gmail = mailProviders.find((provider) => provider.id === 'gmail')!
const at = { host: 'smtp.example.com', port: 2599, provider: null, secret: 'hay-7' }
const thrown = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra)

describe('a mail server’s failure, in words', () => {
  it('names the server and port, never a bare code', () => {
    const refused = thrown('connect ECONNREFUSED 127.0.0.1:2599', { code: 'ESOCKET', command: 'CONN' })
    expect(mailFailure(refused, { ...at, half: 'sending' })).toEqual({
      part: 'port',
      words: 'Nothing answered at smtp.example.com, port 2599: check the server’s name and port.',
      link: null,
    })
    const unknown = thrown('getaddrinfo ENOTFOUND smtp.example.com', { code: 'EDNS' })
    expect(mailFailure(unknown, { ...at, half: 'sending' }).words).toBe(
      'There is no server called smtp.example.com: check its name.',
    )
    const slow = thrown('Greeting never received', { code: 'ETIMEDOUT' })
    expect(mailFailure(slow, { ...at, half: 'sending' }).words).toBe(
      'smtp.example.com, port 2599 did not answer in time: check the port, and that the security fits it (TLS for 465, STARTTLS for 587).',
    )
    const silent = thrown('Socket timeout', { code: 'ETIMEOUT' })
    expect(mailFailure(silent, { ...at, port: 143, half: 'reading' }).words).toContain(
      '(TLS for 993, STARTTLS for 143)',
    )
  })

  it('says when the security does not fit the port, and why a certificate is not trusted', () => {
    const plain = thrown('error:0A00010B:SSL routines:ssl3_get_record:wrong version number', { code: 'ESOCKET' })
    expect(mailFailure(plain, { ...at, half: 'sending' })).toMatchObject({
      part: 'security',
      words: 'smtp.example.com, port 2599 does not start with TLS: choose STARTTLS for it, or TLS with port 465.',
    })
    const imapPlain = thrown('wrong version number', { code: 'ERR_SSL_WRONG_VERSION_NUMBER' })
    expect(mailFailure(imapPlain, { ...at, half: 'reading' }).words).toContain('or TLS with port 993.')
    const cases: Array<[Error, string]> = [
      [thrown('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'its certificate is self-signed'],
      [thrown('certificate has expired', { code: 'CERT_HAS_EXPIRED' }), 'its certificate has expired'],
      [
        thrown("Hostname/IP does not match certificate's altnames", { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }),
        'its certificate is made out to another name',
      ],
      [
        thrown('unable to verify the first certificate', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }),
        'no authority the site knows signed its certificate',
      ],
    ]
    for (const [error, why] of cases) {
      expect(mailFailure(error, { ...at, half: 'reading' })).toMatchObject({
        part: 'host',
        words: `smtp.example.com cannot be trusted: ${why}. Check the server’s name.`,
      })
    }
  })

  it('a refused password names the provider’s app password and where to make it', () => {
    const smtp = thrown('Invalid login: 535 5.7.8 Username and Password not accepted', {
      code: 'EAUTH',
      responseCode: 535,
      response: '535 5.7.8 Username and Password not accepted',
    })
    expect(mailFailure(smtp, { ...at, host: 'smtp.gmail.com', provider: gmail, half: 'sending' })).toEqual({
      part: 'password',
      words: `The server refused the password: ${gmail.password}`,
      link: { href: 'https://myaccount.google.com/apppasswords', words: 'Make an app password at Google' },
    })
    const imap = thrown('Command failed', { authenticationFailed: true, responseText: 'Invalid credentials (Failure)' })
    expect(mailFailure(imap, { ...at, half: 'reading' })).toEqual({
      part: 'password',
      words:
        'The server refused the user name or password: check both; many providers need an app password made for the site.',
      link: null,
    })
  })

  it('gives a server’s other refusal in its own words, the password cut out', () => {
    const sender = thrown('Mail command failed', {
      responseCode: 553,
      command: 'MAIL FROM',
      response: '553 5.7.1 hay-7 may not send as hello@farm.example',
    })
    expect(mailFailure(sender, { ...at, half: 'sending' })).toMatchObject({
      part: 'from',
      words: 'The mail server refused the test mail: 553 5.7.1 ••• may not send as hello@farm.example',
    })
  })
})
