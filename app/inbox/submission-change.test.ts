import { describe, expect, it } from 'vitest'
import { parseSubmissionChange } from './submission-change'

describe('parseSubmissionChange', () => {
  it.each([[{ status: 'new' }], [{ status: 'handled' }], [{ spam: false }]])('accepts %j', (change) => {
    expect(parseSubmissionChange(change)).toEqual(change)
  })

  it.each([
    [{}],
    [{ status: 'done' }],
    [{ status: 'HANDLED' }],
    [{ spam: true }],
    [{ spam: 'false' }],
    [{ status: 'handled', spam: false }],
    [{ status: 'handled', name: 'Eve' }],
    [{ status: ['handled'] }],
    [null],
    ['handled'],
    [['status', 'handled']],
  ])('refuses %j', (change) => {
    expect(parseSubmissionChange(change)).toBeNull()
  })
})
