import { describe, expect, it } from 'vitest'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { apiPageSizes, inboxPageSizes, matchesView, pageParams, readInboxQuery, searchMatch } from './inbox-query'
import type { Submission } from '#app/leads/lead'

const read = (query: string) => readInboxQuery(new URLSearchParams(query), apiPageSizes)

describe('readInboxQuery', () => {
  it('reads every parameter, with the defaults for what is left out', () => {
    expect(read('')).toEqual({ ok: true, page: { spam: false, limit: 100 } })
    expect(readInboxQuery(new URLSearchParams(''), inboxPageSizes)).toEqual({
      ok: true,
      page: { spam: false, limit: 25 },
    })
    expect(
      read(
        'before=90&after=10&limit=500&q=%20honey%20&intent=wholesale&product=eggs&urgency=high&status=new&spam=true',
      ),
    ).toEqual({
      ok: true,
      page: {
        before: 90,
        after: 10,
        limit: 500,
        q: 'honey',
        intent: 'wholesale',
        product: 'eggs',
        urgency: 'high',
        status: 'new',
        spam: true,
      },
    })
    expect(read('q=&intent=&product=&urgency=&status=&spam=')).toEqual({ ok: true, page: { spam: false, limit: 100 } })
  })

  it.each([
    ['before=abc', 'The "before" parameter must be a submission id.'],
    ['before=-1', 'The "before" parameter must be a submission id.'],
    ['after=1e3', 'The "after" parameter must be a submission id.'],
    ['limit=0', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['limit=501', 'The "limit" parameter must be a whole number from 1 to 500.'],
    ['limit=2.5', 'The "limit" parameter must be a whole number from 1 to 500.'],
    [
      'intent=spam',
      'The "intent" parameter must be one of order, product_inquiry, pricing, offers, visit, wholesale, complaint, feedback, other.',
    ],
    ['urgency=urgent', 'The "urgency" parameter must be high or normal.'],
    ['status=done', 'The "status" parameter must be new or handled.'],
    ['spam=yes', 'The "spam" parameter must be true or false.'],
    ['q=a&q=b', 'The "q" parameter may be given only once.'],
    [`q=${'x'.repeat(201)}`, 'Search for at most 200 characters.'],
    [`product=${'x'.repeat(61)}`, 'The "product" parameter is at most 60 characters.'],
  ])('refuses %s', (query, error) => {
    expect(read(query)).toEqual({ ok: false, error })
  })

  it('asks the 50-card page for at most 50', () => {
    expect(readInboxQuery(new URLSearchParams('limit=51'), inboxPageSizes)).toMatchObject({ ok: false })
  })
})

describe('pageParams', () => {
  it('keeps the view, the size and `after`, and moves before to the oldest shown', () => {
    expect(pageParams({ q: 'eggs', intent: 'order', spam: true, after: 3, before: 99, limit: 25 }, 40).toString()).toBe(
      'q=eggs&intent=order&spam=true&after=3&before=40&limit=25',
    )
  })
})

describe('searchMatch', () => {
  it.each([
    ['honey', '"honey"*'],
    ['Honey jars', '"honey"* "jars"*'],
    ['example.com', '"example com"*'],
    ['@corner-shop.co.uk', '"corner shop co uk"'],
    ['NEAR( "x" OR y*', '"near"* "x" "or" "y"'],
    ['ho', '"ho"'],
    ['hon', '"hon"*'],
    ['a b c d e f g h i j k', '"a" "b" "c" "d" "e" "f" "g" "h"'],
    ['"', null],
    ['  ', null],
    ['* - ( )', null],
  ])('%j is %j', (q, match) => {
    expect(searchMatch(q)).toBe(match)
  })
})

describe('matchesView', () => {
  const submission: Submission = {
    id: 1,
    name: 'Zoë Brûlée',
    email: 'zoe@corner-shop.co.uk',
    message: 'Any honey left for Friday?',
    aiResponse: null,
    analysis: { ...honeyQuestion, urgency: { level: 'high', cues: ['friday'] } },
    createdAt: '2026-06-10T09:00:00.000Z',
    spam: null,
    status: 'new',
    awaitingAnalysis: false,
    replies: [],
    replyCount: 0,
    history: [],
    answersUpdate: null,
  }

  it.each([
    [{}, true],
    [{ q: 'hon' }, true],
    [{ q: 'zoe brulee' }, true],
    [{ q: 'corner-shop.co.uk' }, true],
    [{ q: 'honey friday' }, true],
    [{ q: 'honey pears' }, false],
    [{ q: 'left honey' }, true],
    [{ q: 'brulee zoe' }, true],
    [{ intent: 'product_inquiry' as const }, true],
    [{ intent: 'wholesale' as const }, false],
    [{ product: 'honey' }, true],
    [{ product: 'eggs' }, false],
    [{ urgency: 'high' as const }, true],
    [{ urgency: 'normal' as const }, false],
    [{ status: 'handled' as const }, false],
    [{ spam: true }, false],
    // A stretch of the past, as the insights link to it: a live arrival newer than it is not in it.
    [{ before: 1 }, false],
    [{ before: 2 }, true],
    [{ after: 1 }, false],
    [{ after: 0, before: 2 }, true],
  ])('%j → %s', (view, expected) => {
    expect(matchesView(submission, { spam: false, ...view })).toBe(expected)
  })
})
