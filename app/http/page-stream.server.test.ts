import { once } from 'node:events'
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
