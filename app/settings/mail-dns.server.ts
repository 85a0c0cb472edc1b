import { isIPv4, isIPv6 } from 'node:net'
import { Resolver } from 'node:dns/promises'
import { propertyOf } from '#app/outside'

/** Free-mail domains: their DMARC says only their own servers send as them, so the farm's never can. */
export const freeMailDomains = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'proton.me',
  'protonmail.com',
  'mail.com',
  'zoho.com',
  'yandex.com',
]

export type RecordVerdict = 'ok' | 'missing' | 'wrong' | 'unknown'

/** One DNS record the From domain should publish, and what the DNS says now. */
export interface MailRecord {
  kind: 'SPF' | 'DKIM' | 'DMARC'
  /** Where it goes (the TXT record's name). */
  name: string
  /** What to publish there. */
  publish: string
  verdict: RecordVerdict
  /** In words: what was found, and what to do. */
  says: string
  /** What the DNS holds there now (the record of this kind), if anything. */
  found: string | null
}

/** A TXT lookup: the records' strings, each joined; [] when the name has none. */
export type ResolveTxt = (name: string) => Promise<string[]>

/** TXT lookups through these DNS servers (the system's when none): each record's strings joined, a short wait, one try. */
export function txtLookups(servers: string[]): ResolveTxt {
  const resolver = new Resolver({ timeout: 3_000, tries: 1 })
  if (servers.length > 0) resolver.setServers(servers)
  return async (name) => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))
}

const joined = (value: string) => value.replace(/\s+/g, ' ').trim()
const keyOf = (record: string) => /(?:^|;)\s*p=([^;]*)/i.exec(record)?.[1]?.replace(/\s+/g, '') ?? null

/**
 * The three records that make the farm's mail trusted (SPF, DKIM, DMARC) for its From domain,
 * each looked up live and said in words: present and right, missing, or wrong (another key, two
 * SPF records). A lookup that fails is said as such, never taken for a missing record.
 */
/**
 * The SPF record to publish: the mail server by its name (`a:`), or by its address when it is one
 * (`ip4:`, `ip6:`; `a:` with an address is a permanent error), and the domain's own MX.
 */
export function spfRecord(mailServer: string | null): string {
  const host = mailServer?.replace(/^\[(.*)\]$/, '$1') ?? null
  const mechanism = !host ? '' : isIPv4(host) ? `ip4:${host} ` : isIPv6(host) ? `ip6:${host} ` : `a:${host} `
  return `v=spf1 ${mechanism}mx ~all`
}

export async function checkMailDns({
  domain,
  selector,
  dkimRecord,
  mailServer,
  reportsTo,
  resolveTxt,
}: {
  domain: string
  selector: string
  /** Ours: `v=DKIM1; k=rsa; p=…`. */
  dkimRecord: string
  /** The mail server's host, which SPF must let send for the domain. */
  mailServer: string | null
  /** Where DMARC's reports go: the owner's address. */
  reportsTo: string
  resolveTxt: ResolveTxt
}): Promise<MailRecord[]> {
  const lookup = async (name: string): Promise<string[] | null> => {
    try {
      return (await resolveTxt(name)).map(joined)
    } catch (error) {
      const code = propertyOf(error, 'code')
      return code === 'ENOTFOUND' || code === 'ENODATA' ? [] : null
    }
  }
  const spfPublish = spfRecord(mailServer)
  const dkimName = `${selector}._domainkey.${domain}`
  const dmarcName = `_dmarc.${domain}`
  const dmarcPublish = `v=DMARC1; p=none; rua=mailto:${reportsTo}`
  const [atDomain, atSelector, atDmarc] = await Promise.all([lookup(domain), lookup(dkimName), lookup(dmarcName)])

  const unknown = (kind: MailRecord['kind'], name: string, publish: string): MailRecord => ({
    kind,
    name,
    publish,
    verdict: 'unknown',
    found: null,
    says: `The DNS did not answer for ${name}; try again in a while.`,
  })

  const spf = ((): MailRecord => {
    if (atDomain === null) return unknown('SPF', domain, spfPublish)
    const found = atDomain.filter((record) => /^v=spf1(\s|$)/i.test(record))
    const base = { kind: 'SPF' as const, name: domain, publish: spfPublish, found: found.join(' | ') || null }
    if (found.length === 0)
      return { ...base, verdict: 'missing', says: `No SPF record: publish this TXT record at ${domain}.` }
    if (found.length > 1) {
      return {
        ...base,
        verdict: 'wrong',
        says: 'Two SPF records: receivers then treat SPF as broken. Keep one, naming every server that sends as the farm.',
      }
    }
    const names = mailServer && found[0]!.toLowerCase().includes(mailServer.toLowerCase())
    return {
      ...base,
      verdict: 'ok',
      says:
        names || !mailServer
          ? 'SPF is published.'
          : `SPF is published; check that it lets ${mailServer} send (your provider's include: does, if it is theirs).`,
    }
  })()

  const dkim = ((): MailRecord => {
    if (atSelector === null) return unknown('DKIM', dkimName, dkimRecord)
    const found = atSelector.find((record) => /^v=DKIM1/i.test(record) || keyOf(record) !== null) ?? null
    const base = { kind: 'DKIM' as const, name: dkimName, publish: dkimRecord, found }
    if (!found)
      return { ...base, verdict: 'missing', says: `No DKIM key at ${dkimName}: publish this TXT record there.` }
    if (keyOf(found) !== keyOf(dkimRecord)) {
      return {
        ...base,
        verdict: 'wrong',
        says: `The key at ${dkimName} is not the site's: publish this one in its place.`,
      }
    }
    return { ...base, verdict: 'ok', says: 'The DKIM key is published: mail signed by the site verifies.' }
  })()

  const dmarc = ((): MailRecord => {
    if (atDmarc === null) return unknown('DMARC', dmarcName, dmarcPublish)
    const found = atDmarc.find((record) => /^v=DMARC1/i.test(record)) ?? null
    const base = { kind: 'DMARC' as const, name: dmarcName, publish: dmarcPublish, found }
    if (!found) {
      return {
        ...base,
        verdict: 'missing',
        says: `No DMARC record: publish this at ${dmarcName}, p=none to start, and read the reports.`,
      }
    }
    return { ...base, verdict: 'ok', says: 'DMARC is published.' }
  })()

  return [spf, dkim, dmarc]
}
