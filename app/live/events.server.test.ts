import { describe, expect, it, vi } from 'vitest'
import { SubmissionEvents } from './events.server'
import type { Submission } from '#app/leads/lead'

const submission: Submission = {
  id: 7,
  name: 'Ann',
  email: 'ann@example.com',
  message: 'Hi',
  aiResponse: null,
  analysis: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  spam: null,
  status: 'new',
  awaitingAnalysis: false,
  replies: [],
  replyCount: 0,
  history: [],
  answersUpdate: null,
}

describe('SubmissionEvents', () => {
  it('delivers each event to every watcher until it unsubscribes', () => {
    const events = new SubmissionEvents()
    const first = vi.fn()
    const second = vi.fn()
    const stopFirst = events.subscribe(first)
    events.subscribe(second)
    events.publish({ type: 'NEW_SUBMISSION', data: submission })
    stopFirst()
    events.publish({ type: 'SUBMISSION_UPDATED', data: { ...submission, id: 8, status: 'handled' } })
    expect(first.mock.calls).toEqual([[{ type: 'NEW_SUBMISSION', data: submission }]])
    expect(second.mock.calls[1]).toEqual([
      { type: 'SUBMISSION_UPDATED', data: { ...submission, id: 8, status: 'handled' } },
    ])
  })

  it('keeps delivering when one watcher throws', () => {
    const events = new SubmissionEvents()
    const after = vi.fn()
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    events.subscribe(() => {
      throw new Error('broken socket')
    })
    events.subscribe(after)
    expect(() => events.publish({ type: 'NEW_SUBMISSION', data: submission })).not.toThrow()
    expect(after).toHaveBeenCalledOnce()
    quiet.mockRestore()
  })
})
