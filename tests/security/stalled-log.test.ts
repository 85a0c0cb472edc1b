// A log reader that stops reading (a full pipe) once kept the server from stopping: it wrote its
// log synchronously, and SIGTERM left it alive, blocked in a write no deadline could interrupt.
// The log now writes asynchronously through a bounded buffer that drops, and counts, what a
// stalled reader cannot take; neither the requests nor the shutdown wait on it.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { freePort, projectRoot, tempDatabasePath } from '#tests/support/server'

it('answers requests and stops on SIGTERM while nobody reads its standard output', async () => {
  const port = await freePort()
  const child = spawn(process.execPath, ['build/server.js'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), DATABASE_PATH: tempDatabasePath(), NODE_ENV: 'production' },
    // Standard output is a pipe this test never reads: it fills, and stays full.
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (response) => response.status,
            () => 0,
          ),
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBe(200)
    let answered = 0
    // Each request is a log line: far more than the pipe holds.
    for (let n = 0; n < 1_500; n++) {
      const response = await fetch(`http://127.0.0.1:${port}/no-such-page-${n}`)
      await response.arrayBuffer()
      if (response.status === 404) answered++
    }
    expect(answered).toBe(1_500)
    child.kill('SIGTERM')
    // It stops by itself, cleanly: not cut at the shutdown deadline (exit code 1), not killed here.
    const stopped = await Promise.race([
      exited,
      new Promise<'alive'>((resolve) => setTimeout(resolve, 20_000, 'alive')),
    ])
    expect(stopped).toBe(0)
  } finally {
    child.kill('SIGKILL')
  }
}, 60_000)

it('drops what a stalled reader cannot take, counts it exactly, and says so once the reader reads again', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join('tests', 'support', 'log-writer.ts')], {
    cwd: projectRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdout.pause()
  await new Promise<void>((resolve) => child.stderr.once('data', () => resolve()))
  let printed = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => (printed += chunk))
  child.stdout.resume()
  child.stdin.write('go\n')
  await new Promise((resolve) => child.once('close', resolve))
  const lines = printed
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; n?: number; droppedLines?: number })
  const written = lines.filter((line) => line.msg === 'a line')
  const said = lines.filter((line) => line.msg.startsWith('standard output was not read for a while'))
  expect(said).toHaveLength(1)
  expect(said[0]!.droppedLines).toBeGreaterThan(0)
  // Every line is either written whole, in order, or counted as dropped.
  expect(written.length + said[0]!.droppedLines!).toBe(2_000)
  const numbers = written.map((line) => line.n!)
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
  expect(lines.at(-1)!.msg).toBe('the last line')
})
