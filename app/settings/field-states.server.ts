import { fields, type FieldState, type Source } from './fields'
import { serverOfPart, servers } from './servers-in-parts'

/**
 * Every field as the page and the API show it: its value (a secret only as set or not), where it
 * comes from (the environment wins, then the settings page, then the default), and what locks it.
 */
export function fieldStates({
  stored,
  fromEnvironment,
  lockOf,
  defaults,
}: {
  stored: Map<string, string>
  fromEnvironment: (key: string) => string | null
  /** The environment variable that sets a field: its own name, or the URL it is a part of. */
  lockOf: (key: string) => string
  defaults: Record<string, string>
}): FieldState[] {
  const fromUrls = Object.fromEntries(
    servers.map((server) => {
      const url = fromEnvironment(server.url)
      return [server.url, url && URL.canParse(url) ? server.partsOf(new URL(url)) : {}]
    }),
  )
  return fields.map(({ key, kind }) => {
    const lock = lockOf(key)
    const environment = fromEnvironment(lock)
    const mine = stored.get(key)
    const source: Source = environment !== null ? 'environment' : mine !== undefined ? 'settings page' : 'default'
    const server = serverOfPart(key)
    const shownDefault =
      server && key.endsWith('_PORT')
        ? server.portFor(stored.get(key.replace('_PORT', '_SECURITY')))
        : server && key.endsWith('_SECURITY')
          ? server.defaultSecurity
          : key === 'IMAP_FOLDER'
            ? 'INBOX'
            : (defaults[key] ?? '')
    const value =
      environment !== null ? (lock === key ? environment : (fromUrls[lock]?.[key] ?? null)) : (mine ?? shownDefault)
    const secret = kind === 'secret'
    return {
      key,
      value: secret ? null : value,
      set: secret
        ? environment !== null
          ? key !== server?.password || /:[^@/]*@/.test(environment)
          : Boolean(mine)
        : Boolean(value),
      source,
      lockedBy: environment !== null ? lock : null,
    }
  })
}
