// Serves the bare Remix page's build the way remix-serve does: static bundles cached for
// good, everything else through the request handler.
import { createRequestHandler } from '@remix-run/express'
import express from 'express'

const build = await import(new URL('build/index.js', import.meta.url).href)
const app = express()
app.use('/build', express.static(new URL('public/build', import.meta.url).pathname, { immutable: true, maxAge: '1y' }))
app.all('*', createRequestHandler({ build, mode: 'production' }))
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'))
