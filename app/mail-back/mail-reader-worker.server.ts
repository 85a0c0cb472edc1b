// The mail reader's worker: parsing a stranger's mail and turning its HTML into text can take
// seconds for mail shaped against it, and here that holds up only this thread, which the
// server ends at its time limit, never the server's own.
import { parentPort } from 'node:worker_threads'
import { readBack, readTooLarge } from './read-back.server'
import type { MailReading, MailReadingAnswer } from './mail-reader.server'

async function answer({ job, source, of }: MailReading): Promise<MailReadingAnswer> {
  try {
    const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength)
    const read = of === 'headers' ? await readTooLarge(bytes) : await readBack(bytes, { reportOnly: of === 'report' })
    return { job, ok: true, read }
  } catch (error) {
    return { job, ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

parentPort?.on('message', (reading: MailReading) => {
  void answer(reading).then((answered) => parentPort?.postMessage(answered))
})
// Loaded before the first mail's time starts: the parser is what a cold start spends its time on.
await import('mailparser')
parentPort?.postMessage({ ready: true } satisfies MailReadingAnswer)
