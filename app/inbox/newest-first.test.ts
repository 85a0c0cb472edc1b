import { describe, expect, it } from 'vitest'
import { newestFirst } from './newest-first'
import type { Submission } from '#app/leads/lead'

function submission(id: number, name = `Visitor ${id}`): Submission {
  return {
    id,
    name,
    email: `v${id}@example.com`,
    message: 'Hi',
    aiResponse: null,
    analysis: null,
    createdAt: new Date(id).toISOString(),
    spam: null,
    status: 'new',
    awaitingAnalysis: false,
    replies: [],
    replyCount: 0,
    history: [],
    answersUpdate: null,
  }
}

describe('newestFirst', () => {
  it('merges lists newest first and keeps each submission once, as the first list has it', () => {
    const loaded = [submission(3), submission(2), submission(1)]
    const arrived = [submission(5), submission(3, 'Duplicate')]
    expect(newestFirst(arrived, loaded).map((s) => [s.id, s.name])).toEqual([
      [5, 'Visitor 5'],
      [3, 'Duplicate'],
      [2, 'Visitor 2'],
      [1, 'Visitor 1'],
    ])
  })

  it('handles empty lists', () => {
    expect(newestFirst([], [])).toEqual([])
  })
})
