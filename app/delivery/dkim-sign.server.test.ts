import { generateKeyPairSync } from 'node:crypto'
import { dkimVerify } from 'mailauth/lib/dkim/verify.js'
import { expect, it } from 'vitest'
import { overSigned } from './dkim-sign.server'

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const key = {
  domainName: 'farm.example',
  keySelector: 'farm',
  privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
}
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'farm._domainkey.farm.example') return [[record]]
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
}
const verdict = async (raw: Buffer) =>
  ((await dkimVerify(raw, { resolver })) as { results: Array<{ status: { result: string } }> }).results.map(
    (result) => result.status.result,
  )

const acknowledgement = Buffer.from(
  [
    'From: Willow Creek Farm <farm@farm.example>',
    'To: ann@example.com',
    'Subject: We got your message',
    'Date: Sat, 28 Nov 2026 09:00:00 +0000',
    'Message-ID: <ack.1@farm.example>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thank you, Ann.  We read every message.   ',
    '',
    '',
  ].join('\r\n'),
)
const names = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'List-Unsubscribe',
]

it('signs what is there and, once more, what is not: a header added on the way breaks the signature', async () => {
  const signed = overSigned(acknowledgement, key, names, new Date('2026-11-28T09:00:00Z'))
  expect(await verdict(signed)).toEqual(['pass'])
  const h = /h=([^;]+);/.exec(signed.toString())![1]!.replace(/\s+/g, '')
  // Each present one twice (itself and one more), each absent one once.
  expect(h.split(':').filter((name) => name === 'from')).toHaveLength(2)
  expect(h.split(':').filter((name) => name === 'list-unsubscribe')).toHaveLength(1)
  expect(h.split(':').filter((name) => name === 'in-reply-to')).toHaveLength(1)
  for (const added of [
    'List-Unsubscribe: <https://evil.example/unsubscribe>',
    'In-Reply-To: <other@evil.example>',
    'Subject: A second subject',
  ]) {
    const text = signed.toString('binary')
    const tampered = Buffer.from(text.replace('\r\n\r\n', `\r\n${added}\r\n\r\n`), 'binary')
    expect(await verdict(tampered), added).not.toEqual(['pass'])
  }
  const changedBody = Buffer.from(signed.toString('binary').replace('Thank you, Ann.', 'Thank you, Bob.'), 'binary')
  expect(await verdict(changedBody)).not.toEqual(['pass'])
})

it('signs a mail built with LF line ends as the CRLF mail the server gets', async () => {
  const lf = Buffer.from(acknowledgement.toString().replace(/\r\n/g, '\n'))
  const signed = overSigned(lf, key, names, new Date('2026-11-28T09:00:00Z'))
  expect(signed.toString()).not.toMatch(/[^\r]\n/)
  expect(await verdict(signed)).toEqual(['pass'])
})
