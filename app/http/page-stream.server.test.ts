import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { createElement } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import { expect, it } from 'vitest'
import { writtenTogether } from './page-stream.server'

function piecesOf(stream: ReturnType<typeof writtenTogether>) {
  const pieces: string[] = []
  stream.on('data', (piece: Buffer) => pieces.push(piece.toString('utf8')))
  return pieces
}

it('passes on what React writes in one go as one piece, so it is compressed and flushed once', async () => {
  const stream = writtenTogether()
  const pieces = piecesOf(stream)
  stream.write('<html><head>')
  stream.write('<title>Farm Sales Data</title>')
  stream.write('</head><body>')
  await new Promise((resolve) => setImmediate(resolve))
  expect(pieces).toEqual(['<html><head><title>Farm Sales Data</title></head><body>'])
})

it('still sends what is written later on its own, as soon as it is written, and all of it before the end', async () => {
  const stream = writtenTogether()
  const pieces = piecesOf(stream)
  stream.write('<p>shell</p>')
  await new Promise((resolve) => setImmediate(resolve))
  expect(pieces).toEqual(['<p>shell</p>'])
  stream.write('<p>streamed ')
  stream.end('later</p>')
  await once(stream, 'end')
  expect(pieces).toEqual(['<p>shell</p>', '<p>streamed later</p>'])
})

/** A list React streams in short pieces, through writtenTogether, as the server sends a page. */
function rendered(items: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = []
    const sink = new PassThrough()
    sink.on('data', (chunk: Buffer) => out.push(chunk))
    sink.on('end', () => resolve(Buffer.concat(out)))
    const list = createElement('ul', null, ...items.map((item, key) => createElement('li', { key }, item)))
    const { pipe } = renderToPipeableStream(list, {
      onAllReady: () => pipe(writtenTogether()).pipe(sink),
      onError: reject,
    })
  })
}

it('sends no NUL where React 18 flushes its 2,048-byte buffer with a character that did not fit in it', async () => {
  // Short pieces fill React's buffer; with one of these lengths a 3-byte ’ falls across its end.
  for (let length = 1; length <= 12; length++) {
    const items = Array.from({ length: 300 }, () => `${'a'.repeat(length)}’s`)
    const page = await rendered(items)
    expect({ length, nul: page.indexOf(0) }).toEqual({ length, nul: -1 })
    expect(page.toString('utf8')).toBe(`<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)
  }
})
