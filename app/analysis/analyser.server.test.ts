import { describe, expect, it, vi } from 'vitest'
import type { Analysis } from './analysis'
import type { Log } from '#app/log'
import { createAnalyser } from './analyser.server'
import { honeyQuestion } from '#tests/fixtures/honey-question'
import { ReadingTimedOut } from './reading-pool.server'

const form = { name: 'Ann Lee', email: 'ann@example.com', message: 'Any honey left?' }
const now = new Date('2026-06-10T09:00:00.000Z')
const offline = honeyQuestion
const llm: Analysis = { ...offline, intents: ['order'], source: 'llm' }

function quietLog() {
  return { warn: vi.fn(), error: vi.fn() } satisfies Pick<Log, 'warn' | 'error'>
}

describe('the analyser', () => {
  it('reads offline when no language model is configured', async () => {
    const readOffline = vi.fn(() => offline)
    const analyse = createAnalyser({ readOffline, log: quietLog(), now: () => now })
    expect(await analyse(form)).toEqual({
      analysis: offline,
      aiResponse: 'Ann Lee asks about honey. Not urgent. Suggested reply: tell them what you have and when.',
    })
    expect(readOffline).toHaveBeenCalledWith(form, now, null)
  })

  it('gives the readers the farm’s wall clock: a message of Sunday 23:30 UTC is read on Monday in Auckland', async () => {
    const readOffline = vi.fn(() => offline)
    const readWithLlm = vi.fn(async () => ({ ok: false as const, reason: 'down' }))
    const analyse = createAnalyser({
      readOffline,
      readWithLlm,
      log: quietLog(),
      now: () => new Date('2026-11-22T23:30:00.000Z'),
      timeZone: () => 'Pacific/Auckland',
    })
    await analyse(form)
    const monday = new Date('2026-11-23T12:30:00.000Z')
    expect(readOffline).toHaveBeenCalledWith(form, monday, null)
    expect(readWithLlm).toHaveBeenCalledWith(form, monday)
  })

  it('takes the language model’s reading when it gives one', async () => {
    const analyse = createAnalyser({
      readOffline: () => offline,
      readWithLlm: async () => ({ ok: true, analysis: llm }),
      log: quietLog(),
    })
    expect((await analyse(form)).analysis).toEqual({ ...llm, order: null })
  })

  it('gives the language model’s reading the order the offline reader read, with the farm’s hours', async () => {
    const order = { lines: [{ product: 'honey', quantity: 2, unit: 'jar' }], unplaced: [], when: null }
    const hours = { week: [null, null, null, null, null, { opens: '09:00', closes: '12:00' }, null], exceptions: [] }
    const readOffline = vi.fn(() => ({ ...offline, order }))
    const analyse = createAnalyser({
      readOffline,
      readWithLlm: async () => ({ ok: true, analysis: llm }),
      log: quietLog(),
      now: () => now,
      openingHours: () => hours,
    })
    expect((await analyse(form)).analysis).toEqual({ ...llm, order })
    expect(readOffline).toHaveBeenCalledWith(form, now, hours)
  })

  it('keeps the language model’s reading, without an order, when the offline reader runs out of time', async () => {
    const log = quietLog()
    const analyse = createAnalyser({
      readOffline: async () => {
        throw new ReadingTimedOut('no reading within the 1500 ms budget')
      },
      readWithLlm: async () => ({ ok: true, analysis: llm }),
      log,
    })
    expect((await analyse(form)).analysis).toEqual({ ...llm, order: null })
    expect(log.warn).toHaveBeenCalledWith({ reason: 'no reading within the 1500 ms budget' }, expect.any(String))
  })

  it('falls back to the offline reading and logs why, without the message or the email', async () => {
    const log = quietLog()
    const analyse = createAnalyser({
      readOffline: () => offline,
      readWithLlm: async () => ({ ok: false, reason: 'no answer within 200 ms' }),
      log,
    })
    expect((await analyse(form)).analysis).toEqual(offline)
    expect(log.warn).toHaveBeenCalledWith({ reason: 'no answer within 200 ms' }, expect.any(String))
    const logged = JSON.stringify(log.warn.mock.calls)
    expect(logged).not.toContain(form.message)
    expect(logged).not.toContain(form.email)
  })

  it('stores without an analysis, and warns why, when the reading runs out of time', async () => {
    const log = quietLog()
    const analyse = createAnalyser({
      readOffline: async () => {
        throw new ReadingTimedOut('no reading within the 1500 ms budget')
      },
      log,
    })
    expect(await analyse(form)).toEqual({ analysis: null, aiResponse: null })
    expect(log.warn).toHaveBeenCalledWith({ reason: 'no reading within the 1500 ms budget' }, expect.any(String))
    expect(log.error).not.toHaveBeenCalled()
  })

  it('still answers, with no analysis, when the offline reader fails', async () => {
    const log = quietLog()
    const analyse = createAnalyser({
      readOffline: () => {
        throw new Error('model file damaged')
      },
      log,
    })
    expect(await analyse(form)).toEqual({ analysis: null, aiResponse: null })
    expect(log.error).toHaveBeenCalledOnce()
  })
})
