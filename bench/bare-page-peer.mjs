// The bare peer for `npm run bench`'s GET / rows: Express 4 sending the HTML it is given
// (the product's home page as a visitor gets it), nothing else.
//
//   PORT=3002 PAGE_FILE=/tmp/home.html node bench/bare-page-peer.mjs
import { readFileSync } from 'node:fs'
import express from 'express'

const html = readFileSync(process.env.PAGE_FILE, 'utf8')
const app = express()
app.get('/', (_req, res) => res.type('html').send(html))
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'))
