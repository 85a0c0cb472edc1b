import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDeliveryEngine, owedSinceLastLook } from './engine.server'

beforeEach(() => void vi.useFakeTimers({ now: Date.parse('2026-11-26T08:00:00Z') }))
afterEach(() => void vi.useRealTimers())

function engineWithLog() {
  let logged = ''
  const log = pino(new Writable({ write: (chunk, _encoding, done) => ((logged += chunk), done()) }))
  return { engine: createDeliveryEngine({ log }), logged: () => logged }
}

/** A sender whose rounds are counted and whose answers the test gives by hand. */
function sender(engine: ReturnType<typeof createDeliveryEngine>, name: string, mayHaveWork?: () => boolean) {
  const answers: Array<(wakeAt: number | null) => void> = []
  engine.run({
    name,
    retryMs: 1_000,
    round: () => new Promise<number | null>((answer) => answers.push(answer)),
    ...(mayHaveWork ? { mayHaveWork } : {}),
  })
  return answers
}

describe('the delivery engine', () => {
  it('wakes every sender at start, and after a commit only those that may have work', async () => {
    const { engine } = engineWithLog()
    let phonesOwed = false
    const mail = sender(engine, 'mail')
    const pushes = sender(engine, 'pushes', () => phonesOwed)
    engine.start()
    expect([mail.length, pushes.length]).toEqual([1, 1])
    mail[0]!(null)
    pushes[0]!(null)
    await vi.advanceTimersByTimeAsync(0)
    engine.owed()
    expect([mail.length, pushes.length]).toEqual([2, 1])
    phonesOwed = true
    mail[1]!(null)
    await vi.advanceTimersByTimeAsync(0)
    engine.owed()
    expect([mail.length, pushes.length]).toEqual([3, 2])
  })

  it('wakes a sender guarded by owedSinceLastLook once after each commit that owed it something', async () => {
    const { engine } = engineWithLog()
    const lately = owedSinceLastLook()
    const pushes = sender(engine, 'pushes', lately.mayHaveWork)
    engine.start()
    pushes[0]!(null)
    await vi.advanceTimersByTimeAsync(0)
    engine.owed()
    expect(pushes).toHaveLength(1)
    lately.owed()
    engine.owed()
    expect(pushes).toHaveLength(2)
    pushes[1]!(null)
    await vi.advanceTimersByTimeAsync(0)
    engine.owed()
    expect(pushes).toHaveLength(2)
  })

  it('stops only once the round on its way has ended, and says it is stopping to the senders', async () => {
    const { engine } = engineWithLog()
    const mail = sender(engine, 'mail')
    engine.start()
    let stopped = false
    const stopping = engine.stop().then(() => (stopped = true))
    expect(engine.stopping).toBe(true)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(stopped).toBe(false)
    mail[0]!(Date.now())
    await stopping
    engine.owed()
    engine.start()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(mail).toHaveLength(1)
  })

  it('asks each sender to mark what it holds only once its round has ended, before it resolves', async () => {
    const { engine } = engineWithLog()
    const order: string[] = []
    let answer: (wakeAt: number | null) => void = () => {}
    engine.run({
      name: 'mail',
      retryMs: 1_000,
      round: () => new Promise<number | null>((resolve) => (answer = resolve)),
      lastly: async () => void order.push('marked what it held'),
    })
    engine.start()
    const stopped = engine.stop().then(() => order.push('stopped'))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(order).toEqual([])
    order.push('round ended')
    answer(null)
    await stopped
    expect(order).toEqual(['round ended', 'marked what it held', 'stopped'])
  })

  it('stops after six seconds when a receiver holds its answer, and logs that something was on its way', async () => {
    const { engine, logged } = engineWithLog()
    sender(engine, 'webhook posts')
    engine.start()
    let stopped = false
    void engine.stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(5_999)
    expect(stopped).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(stopped).toBe(true)
    expect(logged()).toContain('something owed was still on its way at the stop')
  })

  it('logs a round that threw with the sender’s name, and tries again', async () => {
    const { engine, logged } = engineWithLog()
    let rounds = 0
    engine.run({
      name: 'pushes',
      retryMs: 2_000,
      round: async () => {
        rounds++
        throw new Error('no such table: push_messages')
      },
    })
    engine.start()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(rounds).toBe(2)
    expect(logged()).toContain('the pushes owed could not be read')
    expect(logged()).toContain('no such table: push_messages')
    await engine.stop()
  })
})
