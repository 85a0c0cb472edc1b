// Every kind of mail the site sends is DKIM-signed for its From domain, and verifies with a
// maintained verifier (mailauth) against the DNS record the test serves: the owner's lead mail and
// digest, the acknowledgement with the ask, a reply, an update (List-Unsubscribe-Post signed, as
// RFC 8058 §4 requires), the owner's test update and the settings' test mail.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { dkimVerify } from 'mailauth/lib/dkim/verify.js'
import { afterEach, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { everyKindOfMail, postLead } from '#tests/support/every-mail'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import { freePort } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const owner = 'owner@bramble.example'
const mailServers: MailServer[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
})
// Registered after the mail servers' hook, so it runs before it: the sites stop first.
const start = serverPerTest('SIGKILL')

const recordOf = (pem: string) =>
  `v=DKIM1; k=rsa; p=${createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64')}`

/** What the test's DNS answers: the one TXT record at the selector's name, nothing else. */
const resolverFor = (name: string, record: string) => async (asked: string, type: string) => {
  if (asked === name && type === 'TXT') return [[record]]
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${asked}`), { code: 'ENOTFOUND' })
}

type Verdict = { status: { result: string }; signingDomain: string; selector: string }

async function verify(raw: Buffer, name: string, record: string): Promise<Verdict[]> {
  const { results } = (await dkimVerify(raw, { resolver: resolverFor(name, record) })) as { results: Verdict[] }
  return results
}

const signedHeaderNames = (raw: Buffer) => {
  const header = /^DKIM-Signature:([\s\S]*?)\r\n(?=\S)/m.exec(raw.toString('latin1'))![1]!.replace(/\s+/g, '')
  return /(?:^|;)h=([^;]+)/.exec(header)![1]!.toLowerCase().split(':')
}

async function site(env: Record<string, string>) {
  const mail = await startMailServer()
  mailServers.push(mail)
  const port = await freePort()
  const server = await start({
    port,
    env: {
      OWNER_PASSWORD: password,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: owner,
      NOTIFY_FROM: 'Bramble Hill Farm <hello@bramble.example>',
      FARM_NAME: 'Bramble Hill Farm',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: 'loopback',
      ...env,
    },
  })
  return { server, mail, cookie: await signInAsOwner(server.url, password) }
}

describe('DKIM', () => {
  it('signs every kind of mail with the key made once and kept, and each verifies', async () => {
    const { server, mails } = await everyKindOfMail(start, mailServers)
    const [stored] = readRows<{ key: string }>(server.databasePath, "SELECT key FROM signing_keys WHERE name = 'dkim'")
    const record = recordOf(stored!.key)
    for (const [kind, sent] of Object.entries(mails)) {
      const results = await verify(sent.raw, 'farm._domainkey.bramble.example', record)
      expect(
        results.map((result) => [result.status.result, result.signingDomain, result.selector]),
        kind,
      ).toEqual([['pass', 'bramble.example', 'farm']])
      const names = signedHeaderNames(sent.raw)
      for (const name of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']) {
        expect(names, `${kind}: ${name}`).toContain(name)
      }
    }
    const updateMail = mails['an update']!
    expect(signedHeaderNames(updateMail.raw)).toEqual(
      expect.arrayContaining(['list-id', 'list-unsubscribe', 'list-unsubscribe-post']),
    )
    // A header the acknowledgement lacks cannot be added on the way: it is signed as absent (before, it was left out of h=).
    const acknowledgement = mails['an acknowledgement']!.raw.toString('latin1')
    const listed = signedHeaderNames(mails['an acknowledgement']!.raw)
    expect(listed).toEqual(expect.arrayContaining(['in-reply-to', 'references', 'list-unsubscribe']))
    for (const added of ['List-Unsubscribe: <https://evil.example/u>', 'In-Reply-To: <x@evil.example>']) {
      const tampered = Buffer.from(acknowledgement.replace('\r\n\r\n', `\r\n${added}\r\n\r\n`), 'latin1')
      const [result] = await verify(tampered, 'farm._domainkey.bramble.example', record)
      expect(result!.status.result, added).not.toBe('pass')
    }
    // A key that is not the one published fails: the test's DNS is what the verdict rests on.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    })
    expect(
      (await verify(updateMail.raw, 'farm._domainkey.bramble.example', recordOf(String(other))))[0]!.status.result,
    ).toBe('fail')
  })

  it('signs with DKIM_PRIVATE_KEY under DKIM_SELECTOR when they are set, and keeps the key out of the log', async () => {
    const pem = String(
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    )
    // As a container's environment often carries it: one line, its breaks written \n.
    const { server, mail } = await site({ DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'), DKIM_SELECTOR: 'farm2026' })
    await postLead(server, 'Ann Baker', 'ann@example.com')
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    const results = await verify(mail.mails[0]!.raw, 'farm2026._domainkey.bramble.example', recordOf(pem))
    expect(results.map((result) => [result.status.result, result.selector])).toEqual([['pass', 'farm2026']])
    expect(readRows(server.databasePath, "SELECT key FROM signing_keys WHERE name = 'dkim'")).toEqual([])
    expect(server.output()).not.toContain(pem.split('\n')[1]!)
  })

  it('signs under the selector set on the settings page from the next mail, without a restart', async () => {
    const { server, mail, cookie } = await site({})
    const changed = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ DKIM_SELECTOR: 'farm2027' }),
    })
    expect(changed.status).toBe(200)
    await postLead(server, 'Ann Baker', 'ann@example.com')
    await expect.poll(() => mail.mails.length, { timeout: 10_000 }).toBe(1)
    const [stored] = readRows<{ key: string }>(server.databasePath, "SELECT key FROM signing_keys WHERE name = 'dkim'")
    const results = await verify(mail.mails[0]!.raw, 'farm2027._domainkey.bramble.example', recordOf(stored!.key))
    expect(results.map((result) => [result.status.result, result.selector])).toEqual([['pass', 'farm2027']])
  })

  it('refuses a DKIM_PRIVATE_KEY that is not an RSA key, at start, without repeating it', async () => {
    const server = start({ env: { DKIM_PRIVATE_KEY: 'not-a-key-at-all-0123456789' } })
    await expect(server).rejects.toThrow(/DKIM_PRIVATE_KEY must be an RSA private key in PEM/)
    await expect(server).rejects.not.toThrow(/not-a-key-at-all/)
  })
})
