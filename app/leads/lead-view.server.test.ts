import { expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import type { SubmissionRow } from '#app/data/schema'
import { leadView } from './lead-view.server'

const row: SubmissionRow = {
  id: 41,
  name: 'Ann Baker',
  email: 'Ann.Baker@example.com',
  message: 'Any honey left for Saturday?',
  aiResponse: 'Ann asks about honey for Saturday.',
  analysis: honeyQuestion,
  createdAt: new Date('2026-11-26T08:30:00.000Z'),
  spamReasons: null,
  status: 'new',
  reanalyseAt: null,
  analysisAttempts: 0,
  statusChangedBy: null,
  senderKey: 'sender-hash',
  answersUpdate: null,
  mailId: null,
}

it('is the one shape of a lead every reader picks its part from, with times as ISO text and no thread yet', () => {
  expect(leadView(row)).toEqual({
    id: 41,
    name: 'Ann Baker',
    email: 'Ann.Baker@example.com',
    message: 'Any honey left for Saturday?',
    aiResponse: 'Ann asks about honey for Saturday.',
    analysis: honeyQuestion,
    createdAt: '2026-11-26T08:30:00.000Z',
    spam: null,
    status: 'new',
    awaitingAnalysis: false,
    replies: [],
    replyCount: 0,
    history: [],
    answersUpdate: null,
  })
})

it('says why a lead was set aside, and whether it waits to be read again', () => {
  const spam = leadView({ ...row, spamReasons: ['honeypot'], analysis: null, aiResponse: null })
  expect(spam).toMatchObject({ spam: ['honeypot'], analysis: null, aiResponse: null, awaitingAnalysis: false })
  expect(leadView({ ...row, reanalyseAt: new Date(), analysis: null }).awaitingAnalysis).toBe(true)
})
