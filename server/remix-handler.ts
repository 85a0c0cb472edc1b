import { watch } from 'node:fs'
import type { RequestHandler } from 'express'
import { createRequestHandler, type GetLoadContextFunction } from '@remix-run/express'
import { broadcastDevReady, type ServerBuild } from '@remix-run/node'
import type { Config } from './config'
import { withReadBody } from '#server/middleware/body-limit'

const buildFile = new URL('../build/index.js', import.meta.url)

async function importBuild(): Promise<ServerBuild> {
  // A fresh query string makes Node load the rebuilt module, not its cache.
  return import(`${buildFile.href}?t=${Date.now()}`)
}

/**
 * Serves the Remix build. In development the build is imported again after
 * every rebuild, so the process (and every open WebSocket) stays up.
 */
export async function createRemixHandler(
  mode: Config['mode'],
  getLoadContext: GetLoadContextFunction,
): Promise<RequestHandler> {
  let build = await importBuild()
  if (mode === 'development') {
    let pending: NodeJS.Timeout | undefined
    watch(new URL('.', buildFile), () => {
      clearTimeout(pending)
      pending = setTimeout(async () => {
        build = await importBuild()
        await broadcastDevReady(build)
      }, 100)
    })
    await broadcastDevReady(build)
  }
  // Given a function, Remix derives its route table again on every request; in production the
  // build never changes, so it gets the build itself and derives once.
  const handle = createRequestHandler({
    build: mode === 'development' ? async () => build : build,
    mode,
    getLoadContext,
  })
  return (req, res, next) => {
    const body: Buffer | undefined = res.locals.body
    return handle(body ? withReadBody(req, body) : req, res, next)
  }
}
