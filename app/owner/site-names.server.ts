import { isIPv4 } from 'node:net'
import type { Log } from '#app/log'

/** Whether a host name (without its port) is the site's: an IP address, localhost, or one of its own names. */
export function isSiteName(host: string, siteHosts: string[]): boolean {
  if (host.startsWith('[')) return true
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase()
  return name === 'localhost' || isIPv4(name) || siteHosts.includes(name)
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
export function createSiteNames({ siteHosts, inboxOpen, log }: { siteHosts: string[]; inboxOpen: boolean; log: Log }) {
  const logged = new Set<string>()
  return {
    /** Why a request on this host name may not open the inbox (with the setting to add), or null when it may. */
    refusal(host: string): string | null {
      if (!inboxOpen || isSiteName(host, siteHosts)) return null
      const name = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase().slice(0, 253)
      const setting = `ALLOWED_HOSTS=${[...siteHosts, name].join(',')}`
      if (logged.size < mostNamesLogged && !logged.has(name)) {
        logged.add(name)
        log.warn(
          { name, setting },
          `the open inbox was asked for by the name ${name}; to open it there, set ${setting}`,
        )
      }
      return `This inbox does not answer to the name ${name} while it has no password. Set ${setting} (or OWNER_PASSWORD) and restart the site.`
    },
  }
}

export type SiteNames = ReturnType<typeof createSiteNames>
