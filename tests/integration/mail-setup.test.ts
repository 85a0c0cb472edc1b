// The mail set-up page: the SPF, DKIM and DMARC records the From domain should publish, each
// checked live against a DNS server on loopback (DNS_SERVERS), said in words; never the key; a
// warning for a free-mail From; and a test mail to the owner.
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { readRows } from '#tests/support/database'
import { startDnsServer, type DnsServer } from '#tests/support/dns-server'
import { startMailServer, type MailServer } from '#tests/support/mail-server'
import { ownerPassword as password, signInAsOwner } from '#tests/support/owner'
import type { RunningServer } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const mailServers: MailServer[] = []
const dnsServers: DnsServer[] = []

afterEach(async () => {
  for (const mail of mailServers.splice(0)) await mail.close()
  for (const dns of dnsServers.splice(0)) await dns.close()
})
// Registered after the mail and DNS servers' hook, so it runs before it: the sites stop first.
const serve = serverPerTest('SIGKILL')

async function site(env: Record<string, string>) {
  const dns = await startDnsServer()
  dnsServers.push(dns)
  const mail = await startMailServer()
  mailServers.push(mail)
  const server = await serve({
    env: {
      OWNER_PASSWORD: password,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL: 'owner@bramble.example',
      NOTIFY_FROM: 'Bramble Hill Farm <hello@bramble.example>',
      DNS_SERVERS: dns.address,
      ...env,
    },
  })
  return { server, dns, mail, cookie: await signInAsOwner(server.url, password) }
}

const page = async (server: RunningServer, cookie: string) =>
  (await fetch(`${server.url}/farm-sales/mail`, { headers: { Cookie: cookie } })).text()

const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/&#x27;/g, "'")

describe('the mail set-up page', () => {
  it('shows the three records to publish, and says of each what the DNS holds, as it changes', async () => {
    const { server, dns, cookie } = await site({})
    // The key is made with the first mail or the first look at the records, and kept.
    const before = text(await page(server, cookie))
    const { key } = readRows<{ key: string }>(
      server.databasePath,
      "SELECT key FROM signing_keys WHERE name = 'dkim'",
    )[0]!
    const publicKey = createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'der' }).toString('base64')
    expect(before).toContain('No SPF record: publish this TXT record at bramble.example.')
    expect(before).toContain('v=spf1 ip4:127.0.0.1 mx ~all')
    expect(before).toContain('No DKIM key at farm._domainkey.bramble.example: publish this TXT record there.')
    expect(before).toContain(`v=DKIM1; k=rsa; p=${publicKey}`)
    expect(before).toContain(
      'No DMARC record: publish this at _dmarc.bramble.example, p=none to start, and read the reports.',
    )
    expect(before).toContain('v=DMARC1; p=none; rua=mailto:owner@bramble.example')
    // The private key is never on the page.
    expect(before).not.toContain(key.split('\n')[1])

    dns.txt.set('bramble.example', ['v=spf1 include:_spf.mailhost.example ~all', 'google-site-verification=abc'])
    dns.txt.set('farm._domainkey.bramble.example', [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother',
    ])
    dns.txt.set('_dmarc.bramble.example', ['v=DMARC1; p=none; rua=mailto:owner@bramble.example'])
    const partly = text(await page(server, cookie))
    expect(partly).toContain('SPF is published; check that it lets 127.0.0.1 send')
    expect(partly).toContain(
      "The key at farm._domainkey.bramble.example is not the site's: publish this one in its place.",
    )
    expect(partly).toContain('DMARC is published.')

    // A key split into strings of 255 bytes, as DNS holds a long one, is the same key.
    const record = `v=DKIM1; k=rsa; p=${publicKey}`
    dns.txt.set('farm._domainkey.bramble.example', [record])
    dns.txt.set('bramble.example', ['v=spf1 a:127.0.0.1 ~all', 'v=spf1 mx ~all'])
    const after = text(await page(server, cookie))
    expect(after).toContain('The DKIM key is published: mail signed by the site verifies.')
    expect(after).toContain('Two SPF records: receivers then treat SPF as broken.')
  })

  it('warns when the From address is at a free-mail domain, and sends a test mail to the owner', async () => {
    const { server, mail, cookie } = await site({ NOTIFY_FROM: 'willowcreekfarm@gmail.com' })
    const html = text(await page(server, cookie))
    expect(html).toContain('gmail.com is a free-mail domain: its DMARC says only its own servers send as it')
    // Its records are not the farm's to publish: the list is hidden.
    expect(html).toMatch(/<ul class="[^"]*" hidden="">/)
    const sent = await fetch(`${server.url}/farm-sales/mail`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
      body: '',
    })
    expect(sent.status).toBe(200)
    expect(text(await sent.text())).toContain('Sent a test mail to owner@bramble.example. The mail server took it.')
    expect(mail.mails.map((each) => each.subject)).toEqual(['A test mail from Willow Creek Farm'])
  })

  it('is the signed-in owner’s only, and says what to set without a password or mail', async () => {
    const { server } = await site({})
    expect((await fetch(`${server.url}/farm-sales/mail`, { redirect: 'manual' })).status).toBe(302)
    const noMail = await site({ SMTP_URL: '', NOTIFY_EMAIL: '', NOTIFY_FROM: '' })
    expect(text(await page(noMail.server, noMail.cookie))).toContain('Mail is not set up yet.')
    const open = await serve({})
    expect(text(await (await fetch(`${open.url}/farm-sales/mail`)).text())).toContain(
      'To set the site up from here, claim the site first',
    )
  })
})
