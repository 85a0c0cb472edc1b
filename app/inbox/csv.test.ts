import { describe, expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import type { Submission } from '#app/leads/lead'
import { csvField, csvStart, submissionCsvRow } from './csv'

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['with, comma', '"with, comma"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+31 6 1234', "'+31 6 1234"],
    ['-2 dozen', "'-2 dozen"],
    ['@home', "'@home"],
    ['\tindented', "'\tindented"],
    ['\rreturn', '"\'\rreturn"'],
    ['\nline feed', '"\'\nline feed"'],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['\uFF0B31 6', "'\uFF0B31 6"],
    ['\uFF0D2', "'\uFF0D2"],
    ['\uFF20home', "'\uFF20home"],
    [' =1+1', "' =1+1"],
    ['\u3000=1+1', "'\u3000=1+1"],
    ['2 = 2', '2 = 2'],
    ['=HYPERLINK("http://evil.example","x")', '"\'=HYPERLINK(""http://evil.example"",""x"")"'],
    ['', ''],
    [42, '42'],
  ])('%j is %j', (value, field) => {
    expect(csvField(value)).toBe(field)
  })
})

describe('submissionCsvRow', () => {
  it('writes every column in order, CRLF-terminated', () => {
    expect(csvStart('UTC')).toBe(
      '\uFEFFid,received,received (UTC),name,email,message,status,spam,intents,products,urgency,sentiment,AI analysis\r\n',
    )
    expect(csvStart('Pacific/Auckland')).toContain(',received,received (Auckland time),name,')
    const submission: Submission = {
      id: 7,
      name: 'Ann, Lee',
      email: 'ann@example.com',
      message: 'Line one\r\nLine "two"',
      aiResponse: 'Ann asks about honey.',
      analysis: honeyQuestion,
      createdAt: '2026-06-10T09:00:00.000Z',
      spam: null,
      status: 'new',
      awaitingAnalysis: false,
      replies: [],
      replyCount: 0,
      history: [],
      answersUpdate: null,
    }
    expect(submissionCsvRow(submission, 'Pacific/Auckland')).toMatch(/^7,2026-06-10T09:00:00.000Z,2026-06-10 21:00,/)
    const row = submissionCsvRow(submission, 'UTC')
    expect(row).toBe(
      '7,2026-06-10T09:00:00.000Z,2026-06-10 09:00,"Ann, Lee",ann@example.com,"Line one\r\nLine ""two""",new,,product_inquiry,honey,normal,neutral,Ann asks about honey.\r\n',
    )
  })
})
