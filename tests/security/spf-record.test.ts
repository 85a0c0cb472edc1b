import { spf } from 'mailauth/lib/spf'
import { expect, it } from 'vitest'
import { spfRecord } from '#app/settings/mail-dns.server'

/** What mailauth's SPF check says of a mail from `ip` for farm.example, when it publishes `record`. */
async function verdict(record: string, ip: string): Promise<string> {
  const resolver = async (name: string, type: string) => {
    if (type === 'TXT' && name === 'farm.example') return [[record]]
    // mailauth's resolver type says text, but its MX lookup reads Node's records.
    if (type === 'MX' && name === 'farm.example') return [{ exchange: 'mx.farm.example', priority: 10 }] as never
    if (type === 'A' && (name === 'mx.farm.example' || name === 'mail.farm.example')) return ['192.0.2.25']
    const missing = Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENODATA' })
    throw missing
  }
  const result = await spf({ sender: 'hello@farm.example', ip, helo: 'mail.farm.example', mta: 'test', resolver })
  return result.status.result
}

it('suggests an SPF record every parser takes, whether the mail server is a name or an address', async () => {
  // Before: `v=spf1 a:127.0.0.1 mx ~all`, which mailauth judged a permanent error.
  expect(spfRecord('127.0.0.1')).toBe('v=spf1 ip4:127.0.0.1 mx ~all')
  expect(spfRecord('[2001:db8::25]')).toBe('v=spf1 ip6:2001:db8::25 mx ~all')
  expect(spfRecord('mail.farm.example')).toBe('v=spf1 a:mail.farm.example mx ~all')
  expect(spfRecord(null)).toBe('v=spf1 mx ~all')
  expect(await verdict(spfRecord('198.51.100.7'), '198.51.100.7')).toBe('pass')
  expect(await verdict(spfRecord('2001:db8::25'), '2001:db8::25')).toBe('pass')
  expect(await verdict(spfRecord('mail.farm.example'), '192.0.2.25')).toBe('pass')
  expect(await verdict(spfRecord('198.51.100.7'), '203.0.113.9')).toBe('softfail')
  expect(await verdict('v=spf1 a:127.0.0.1 mx ~all', '127.0.0.1')).toBe('permerror')
})
