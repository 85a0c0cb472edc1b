import { isIPv4 } from 'node:net'
import type { Log } from '#app/log'

/** What a request says of itself before its body is read: a Fetch Request, or as little as a page's visit needs. */
export interface PageVisit {
  method: string
  url: string
  headers: Pick<Headers, 'get'>
}

/** A host as a name: without its port or a final dot, in lower case. */
const nameOf = (host: string) =>
  host.startsWith('[') ? host.replace(/(?<=\]):\d+$/, '') : host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase()

/** Whether a host (with or without its port) is the site's: an IP address, localhost, or one of its own names. */
export function isSiteName(host: string, siteHosts: string[]): boolean {
  const name = nameOf(host)
  return name.startsWith('[') || name === 'localhost' || isIPv4(name) || siteHosts.includes(name)
}

// Names are chosen by whoever sends the request: past this many, a refused name is no longer logged.
const mostNamesLogged = 20

/**
 * Which names may open the inbox (decision 025). With OWNER_PASSWORD every name may: the inbox
 * needs a session cookie, and a browser sends a cookie only to the name that set it, so a page
 * on a name an attacker pointed at this server (DNS rebinding) has none. An open inbox has no such
 * lock, so it, its API and the live link answer only to an IP address, localhost and the site's
 * own names (PUBLIC_URL's, ALLOWED_HOSTS); the visitors' pages answer to any name.
 */
export function createSiteNames({
  siteHosts,
  inboxOpen,
  log,
}: {
  /** The site's own names now: PUBLIC_URL's follows the settings. */
  siteHosts: () => string[]
  inboxOpen: () => boolean
  log: Log
}) {
  const logged = new Set<string>()
  const strangerIn = (hosts: Array<string | null | undefined>) =>
    (inboxOpen() && hosts.find((host) => host && !isSiteName(host, siteHosts()))) || null
  return {
    /**
     * Why a request may not open the inbox (with the setting to add), or null when it may. Every
     * name it gives must be the site's: the Host, and the forwarded host a trusted proxy passed
     * on (which a page's script can also set, where the proxy passes it through unchecked).
     */
    refusal(hosts: Array<string | null | undefined>): string | null {
      const stranger = strangerIn(hosts)
      if (!stranger) return null
      const name = nameOf(stranger).slice(0, 253)
      const setting = `ALLOWED_HOSTS=${[...siteHosts(), name].join(',')}`
      if (logged.size < mostNamesLogged && !logged.has(name)) {
        logged.add(name)
        log.warn(
          { name, setting },
          `the open inbox was asked for by the name ${name}; to open it there, set ${setting}`,
        )
      }
      return `This inbox does not answer to the name ${name} while it has no password. Set ${setting} (or OWNER_PASSWORD) and restart the site.`
    },

    /** The names a page's request gives: its Host, and the forwarded host its URL was built from. */
    namesOf: (request: PageVisit) => [request.headers.get('Host'), new URL(request.url).host],

    /** Whether these names may open the inbox, saying nothing in the log (a visitor's page asks, not the inbox). */
    opens: (hosts: Array<string | null | undefined>) => strangerIn(hosts) === null,
  }
}

export type SiteNames = ReturnType<typeof createSiteNames>
