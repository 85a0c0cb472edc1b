import { expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { openDatabase } from '#app/data/database.server'
import { replies, submissions, type SubmissionRow } from '#app/data/schema'
import { migrationsFolder } from '#tests/support/database'
import { tempDatabasePath } from '#tests/support/server'
import { leadsAndAnswers, leadView } from './lead-view.server'

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
  language: null,
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

it('tells the owner’s mail, the phones and the webhook of an answer too large to read in words, not as if its subject were what was written', () => {
  const { db, sqlite } = openDatabase(tempDatabasePath(), migrationsFolder)
  const lead = db
    .insert(submissions)
    .values({ ...row, id: undefined })
    .returning()
    .get()
  const answer = (text: string, tooLarge: boolean, messageId: string) =>
    db
      .insert(replies)
      .values({
        submissionId: lead.id,
        kind: 'answer',
        toAddress: 'ann.baker@example.com',
        addressKey: 'ann.baker@example.com',
        text,
        messageId,
        createdAt: new Date(),
        tooLarge,
      })
      .returning()
      .get().id
  const big = answer('Re: honey', true, '<big@remote.test>')
  const small = answer('Two jars, please.', false, '<small@remote.test>')
  const { answerOf } = leadsAndAnswers(db, [lead.id], [big, small])
  expect(answerOf(big)).toMatchObject({
    tooLarge: true,
    text: '(A mail too large to read here, under the subject “Re: honey”: the whole mail is in the farm’s mailbox.)',
  })
  expect(answerOf(small)).toMatchObject({ tooLarge: false, text: 'Two jars, please.' })
  sqlite.close()
})
