import { expect, it } from 'vitest'
import { bodyUpTo, propertyOf, textOf } from './outside'

it('reads a property of whatever came from outside, and nothing of what has none', () => {
  const thrown = Object.assign(new Error('busy'), { code: 'SQLITE_BUSY', status: 503 })
  expect(propertyOf(thrown, 'code')).toBe('SQLITE_BUSY')
  expect(propertyOf(thrown, 'status')).toBe(503)
  expect(textOf(thrown, 'status')).toBeUndefined()
  expect(textOf({ error: 'Too many tries.' }, 'error')).toBe('Too many tries.')
  for (const nothing of [null, undefined, 'text', 42]) expect(propertyOf(nothing, 'code')).toBeUndefined()
  expect(propertyOf(propertyOf({ cause: { code: 'ECONNREFUSED' } }, 'cause'), 'code')).toBe('ECONNREFUSED')
})

it('reads an answer’s body up to a size, whole characters across pieces, and lets an endless one go', async () => {
  const pieces = (parts: Uint8Array[]) =>
    new Response(
      new ReadableStream({
        pull(controller) {
          const next = parts.shift()
          if (next) controller.enqueue(next)
          else controller.close()
        },
      }),
    )
  const egg = new TextEncoder().encode('œufs')
  expect(await bodyUpTo(pieces([egg.subarray(0, 1), egg.subarray(1)]), 16)).toBe('œufs')
  let sent = 0
  const endless = new Response(
    new ReadableStream({
      pull(controller) {
        sent += 1024
        controller.enqueue(new Uint8Array(1024))
      },
    }),
  )
  expect(await bodyUpTo(endless, 64 * 1024)).toBeNull()
  expect(sent).toBeLessThan(80 * 1024)
})
