// A stand-in for the mail reader's worker that answers each mail as a notice, then falls over
// while idle: what the reader must survive (the server's own process must not fall with it).
import { parentPort } from 'node:worker_threads'

parentPort.on('message', ({ job }) => {
  parentPort.postMessage({ job, ok: true, read: { kind: 'notice' } })
  setTimeout(() => {
    throw new Error('fell over while idle')
  }, 20)
})
parentPort.postMessage({ ready: true })
