// Writes 2,000 log lines through the site's log at once, with a small buffer (16 KB), while the
// test reads none of them; says so on stderr; and once the test reads again, one more line, then
// exits. Run by tests/security/stalled-log.test.ts.
import { createLog } from '#server/log'

const { log, flush } = createLog({ mostUnwrittenBytes: 16 * 1024 })
for (let n = 1; n <= 2_000; n++) log.info({ n, padding: 'x'.repeat(60) }, 'a line')
process.stderr.write('written\n')
process.stdin.once('data', async () => {
  await flush(5_000)
  log.info({}, 'the last line')
  await flush(5_000)
  process.exit(0)
})
