import { spawnSync } from 'node:child_process'
import vnuJar from 'vnu-jar'

/** The Nu HTML Checker's errors for these files, by file. */
export function htmlErrors(files: string[]): Array<{ file: string; message: string }> {
  // The HTML only: its CSS checker predates what Tailwind 4 writes (@property, which every current browser has).
  const run = spawnSync(
    'java',
    ['-jar', String(vnuJar), '--errors-only', '--filterpattern', 'CSS: .*', '--format', 'json', ...files],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  const report = JSON.parse(run.stderr || run.stdout) as { messages: Array<{ url: string; message: string }> }
  return report.messages.map(({ url, message }) => ({ file: url.replace(/^file:/, ''), message }))
}
