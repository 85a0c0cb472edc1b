import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

/** The files' size gzipped at level 9, in KB. */
export const gzipKb = (contents: Buffer[]) =>
  contents.reduce((sum, content) => sum + gzipSync(content, { level: 9 }).length, 0) / 1024

/**
 * The gzip size of every script a route loads, from the Remix manifest in `publicBuild`. With lazy
 * route discovery (`lazyDiscovery`, the app's remix.config.js) the page inlines the routes it matched
 * and never loads the manifest's own file, so it is counted only without.
 */
export function routeScripts(publicBuild: string, route: string, lazyDiscovery: boolean) {
  const manifestFile = readdirSync(publicBuild).find((file) => /^manifest-.*\.js$/.test(file))!
  const manifest = JSON.parse(
    readFileSync(join(publicBuild, manifestFile), 'utf8')
      .replace(/^window\.__remixManifest=/, '')
      .replace(/;$/, ''),
  ) as {
    url: string
    entry: { module: string; imports: string[] }
    routes: Record<string, { module: string; imports?: string[] }>
  }
  const files = new Set([
    ...(lazyDiscovery ? [] : [manifest.url]),
    manifest.entry.module,
    ...manifest.entry.imports,
    ...['root', route].flatMap((id) => [manifest.routes[id]!.module, ...(manifest.routes[id]!.imports ?? [])]),
  ])
  const contents = [...files].map((file) => readFileSync(join(publicBuild, '..', file)))
  return {
    files,
    kb: gzipKb(contents),
    framerMotion: contents.some((content) => content.includes('framerAppearId')),
  }
}

/**
 * What a page in one language loads past its route's scripts: that language's messages (their
 * own chunk, `_shared/<language>-….js`, which entry.client waits for) and what they import that the
 * page does not already hold. The pseudo-language loads its own chunk, pseudo-….js, beside English's.
 */
export function languageScripts(publicBuild: string, language: string, pageFiles: Set<string>) {
  const shared = join(publicBuild, '_shared')
  const chunkOf = (name: string) => {
    const chunk = readdirSync(shared).find((file) => new RegExp(`^${name}-[A-Z0-9]+\\.js$`).test(file))
    if (!chunk) throw new Error(`No chunk of ${name} messages in ${shared}`)
    return `/build/_shared/${chunk}`
  }
  const files = new Set<string>()
  const add = (file: string) => {
    if (files.has(file) || pageFiles.has(file)) return
    files.add(file)
    const text = readFileSync(join(publicBuild, '..', file), 'utf8')
    for (const found of text.matchAll(/"(\/build\/_shared\/[^"]+\.js)"/g)) add(found[1]!)
  }
  for (const name of language === 'en-XA' ? ['pseudo', 'en'] : [language]) add(chunkOf(name))
  return { kb: gzipKb([...files].map((file) => readFileSync(join(publicBuild, '..', file)))) }
}
