import { readFile } from 'node:fs/promises'
import type { RequestHandler } from 'express'

/**
 * The inbox's service worker at /service-worker.js: from the site's root, so it may take the
 * /farm-sales scope, and never cached for long, so a new version reaches the phone at its next
 * visit. Built (`npm run build`) it is beside this file; run from source it is compiled when asked.
 */
export function serveServiceWorker(): RequestHandler {
  let script: Promise<string> | undefined
  async function compiled(): Promise<string> {
    if (!import.meta.url.endsWith('.ts')) return readFile(new URL('service-worker.js', import.meta.url), 'utf8')
    const { build } = await import('esbuild')
    const result = await build({
      entryPoints: [new URL('../app/push/service-worker.ts', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      target: 'es2020',
      write: false,
    })
    return result.outputFiles[0]!.text
  }
  return (_req, res, next) => {
    script ??= compiled()
    script.then(
      (text) => {
        res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' })
        res.send(text)
      },
      (error: unknown) => {
        // Read again on the next request rather than failing until a restart.
        script = undefined
        next(error)
      },
    )
  }
}
