import { expect, it } from 'vitest'
import { propertyOf, textOf } from './outside'

it('reads a property of whatever came from outside, and nothing of what has none', () => {
  const thrown = Object.assign(new Error('busy'), { code: 'SQLITE_BUSY', status: 503 })
  expect(propertyOf(thrown, 'code')).toBe('SQLITE_BUSY')
  expect(propertyOf(thrown, 'status')).toBe(503)
  expect(textOf(thrown, 'status')).toBeUndefined()
  expect(textOf({ error: 'Too many tries.' }, 'error')).toBe('Too many tries.')
  for (const nothing of [null, undefined, 'text', 42]) expect(propertyOf(nothing, 'code')).toBeUndefined()
  expect(propertyOf(propertyOf({ cause: { code: 'ECONNREFUSED' } }, 'cause'), 'code')).toBe('ECONNREFUSED')
})
