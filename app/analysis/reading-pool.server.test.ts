import { afterEach, describe, expect, it, vi } from 'vitest'
import { createReadingPool, ReadingTimedOut, type ReadingPool } from './reading-pool.server'

const stallingWorker = new URL('../../tests/support/stalling-reader-worker.mjs', import.meta.url)
const realWorker = new URL('./offline-worker.mjs', import.meta.url)
const at = new Date('2026-06-10T09:00:00.000Z')
const form = (message: string) => ({ name: 'Ann', email: 'ann@example.com', message })

let pool: ReadingPool | undefined
afterEach(async () => {
  await pool?.close()
  pool = undefined
})

describe('the reading pool', () => {
  it('reads messages in a worker thread with the real offline reader', async () => {
    pool = createReadingPool({
      workerUrl: realWorker,
      workerData: { products: [{ name: 'honey', synonyms: [] }] },
      budgetMs: 10_000,
    })
    const analysis = await pool.read(form('Do you have any honey left? I would like two jars.'), at)
    expect(analysis).toMatchObject({ products: ['honey'], source: 'offline' })
  })

  it('hands every message to the worker as it arrives and answers each with its own reading', async () => {
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 10_000 })
    const fruit = Array.from({ length: 50 }, (_, i) => `fruit ${i}`)
    const readings = await Promise.all(fruit.map((name) => pool!.read(form(name), at)))
    expect(readings.map((reading) => reading.products)).toEqual(fruit.map((name) => [name]))
  })

  it('abandons a reading past its budget, starts a fresh worker, and reads the next message', async () => {
    const onReplaced = vi.fn()
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 1_500, onReplaced })
    await expect(pool.read(form('eggs'), at)).resolves.toMatchObject({ products: ['eggs'] })
    const stalled = pool.read(form('stall'), at)
    const behind = pool.read(form('pears'), at)
    await expect(stalled).rejects.toBeInstanceOf(ReadingTimedOut)
    expect(onReplaced).toHaveBeenCalledWith('no reading within the 1500 ms budget')
    // Queued behind the stall, its own budget ran out: while it waited, or (on a busy machine,
    // its deadline a moment after the stall's) in the fresh worker before that one was up.
    await expect(behind).rejects.toBeInstanceOf(ReadingTimedOut)
    await expect(behind).rejects.toThrow(/^(waited past|no reading within) the 1500 ms budget$/)
    await expect(pool.read(form('plums'), at)).resolves.toMatchObject({ products: ['plums'] })
  })

  it('says it is starting until its worker has loaded, and again while a replacement loads', async () => {
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 1_500 })
    expect(pool.ready).toBe(false)
    await expect.poll(() => pool!.ready).toBe(true)
    await expect(pool.read(form('stall'), at)).rejects.toBeInstanceOf(ReadingTimedOut)
    expect(pool.ready).toBe(false)
    await expect.poll(() => pool!.ready).toBe(true)
  })

  it('counts an answer that came after the deadline as late, whether or not the watchdog ran first', async () => {
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 1 })
    await expect.poll(() => pool!.ready).toBe(true)
    const reading = pool.read(form('eggs'), at)
    // This thread is busy past the deadline: the answer and the watchdog's timer wait together.
    const busyUntil = Date.now() + 30
    while (Date.now() < busyUntil);
    await expect(reading).rejects.toBeInstanceOf(ReadingTimedOut)
  })

  it('passes on a reader’s failure without replacing the worker', async () => {
    const onReplaced = vi.fn()
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 5_000, onReplaced })
    await expect(pool.read(form('fail'), at)).rejects.toThrow('could not read')
    await expect(pool.read(form('eggs'), at)).resolves.toMatchObject({ products: ['eggs'] })
    expect(onReplaced).not.toHaveBeenCalled()
  })

  it('refuses work once closed and fails what was waiting', async () => {
    pool = createReadingPool({ workerUrl: stallingWorker, workerData: null, budgetMs: 5_000 })
    const outcomes = Promise.allSettled([pool.read(form('stall'), at), pool.read(form('eggs'), at)])
    await pool.close()
    expect((await outcomes).map((outcome) => outcome.status === 'rejected' && String(outcome.reason))).toEqual([
      'Error: the reading pool is closed',
      'Error: the reading pool is closed',
    ])
    await expect(pool.read(form('eggs'), at)).rejects.toThrow('closed')
  })
})
