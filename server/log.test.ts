import { DrizzleQueryError } from 'drizzle-orm'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { serializeError } from './log'

/** What a logger using the serializer writes for one error, as text. */
function logged(err: unknown) {
  const lines: string[] = []
  const logger = pino({ base: undefined, serializers: { err: serializeError } }, { write: (line) => lines.push(line) })
  logger.error({ err }, 'failed')
  expect(lines).toHaveLength(1)
  return lines[0]!
}

describe('serializeError', () => {
  it('keeps type, message, code and stack frames on one line', () => {
    const error = Object.assign(new Error('no such table: submissions'), { code: 'SQLITE_ERROR' })
    const line = logged(error)
    expect(line.trimEnd()).not.toContain('\n')
    const { err } = JSON.parse(line)
    expect(err).toMatchObject({ type: 'Error', message: 'no such table: submissions', code: 'SQLITE_ERROR' })
    expect(err.stack).toMatch(/^\s+at /)
  })

  it('drops the values a failed Drizzle query bound, keeping the query and its cause', () => {
    const cause = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
    const params = ['Wilf\nHarrow', 'wilf@private.example', 'Secret message\nover two lines', 'Asks a question']
    const error = new DrizzleQueryError('insert into "submissions" values (?, ?, ?, ?)', params, cause)
    const line = logged(error)
    for (const value of params) {
      for (const part of value.split('\n')) expect(line).not.toContain(part)
    }
    expect(JSON.parse(line).err).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "submissions" values (?, ?, ?, ?)',
      cause: { type: 'Error', message: 'database or disk is full', code: 'SQLITE_FULL' },
    })
  })

  it('leaves values that are not errors as they are', () => {
    expect(serializeError('plain text')).toBe('plain text')
    expect(serializeError(undefined)).toBeUndefined()
  })
})
