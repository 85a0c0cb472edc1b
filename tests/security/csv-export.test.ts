// The CSV export: nothing a visitor typed runs as a formula in any column; an export never
// holds the event loop (the site answers while one streams); a download that stops reading
// is not buffered whole, and one owner runs at most EXPORTS_AT_ONCE (2) at a time.
import { request, type IncomingMessage } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseCsv } from '#tests/support/csv-parse'
import { seedSubmissions } from '#tests/support/seed'
import { tempDatabasePath, type RunningServer } from '#tests/support/server'
import { serverPerFile } from '#tests/support/server-per-test'

/** OWASP's formula starts, the full-width ones, and each after spaces a spreadsheet skips. */
const runsAsFormula = /^(?:[\t\r\n]|[\p{Zs}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u

describe('formulas in an export', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    server = await serve()
  })

  it('are defused in every column, whatever the visitor typed', async () => {
    const starts = [
      '=1+1',
      '+1',
      '-1',
      '@SUM(A1)',
      '\uFF1D1+1',
      '\uFF0B1',
      '\uFF0D1',
      '\uFF20SUM(A1)',
      ' =1+1',
      '\u3000=1+1',
    ]
    for (const start of starts) {
      const answer = await fetch(`${server.url}/api/submissions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `${start} Ann`, email: 'ann@example.com', message: `${start} honey\n=2+2` }),
      })
      expect(answer.status).toBeLessThan(300)
    }
    const text = await (await fetch(`${server.url}/api/submissions.csv`)).text()
    const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''))
    expect(rows).toHaveLength(starts.length)
    const live = rows.flatMap((row) => row.map((cell, column) => ({ column: header![column], cell })))
    expect(live.filter(({ cell }) => runsAsFormula.test(cell))).toEqual([])
    // The name shows in the name column and again at the start of the AI analysis, defused in both.
    const names = rows.map((row) => row[header!.indexOf('name')])
    expect(names).toEqual(expect.arrayContaining(["'=1+1 Ann", "'\uFF1D1+1 Ann", "' =1+1 Ann"]))
    const analyses = rows.map((row) => row[header!.indexOf('AI analysis')]!)
    expect(analyses.filter((cell) => cell.startsWith("'")).length).toBeGreaterThan(0)
  })
})

describe('an export of 60,000 submissions', () => {
  let server: RunningServer
  const serve = serverPerFile()
  beforeAll(async () => {
    const databasePath = tempDatabasePath()
    await (await serve({ databasePath })).stop()
    seedSubmissions(databasePath, 60_000)
    server = await serve({ databasePath })
  }, 60_000)

  /** Starts an export and resolves once its headers are in, without reading the body. */
  function startExport(): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(server.url)
      const req = request({ hostname, port, path: '/api/submissions.csv', agent: false }, (res) => {
        res.pause()
        resolve(res)
      })
      req.on('error', reject)
      req.end()
    })
  }

  it('lets the site answer while it streams: /healthz comes back before the export ends', async () => {
    const finished: string[] = []
    const exported = fetch(`${server.url}/api/submissions.csv`)
    const response = await exported
    const body = response.text().then((text) => {
      finished.push('export')
      return text
    })
    const health = await fetch(`${server.url}/healthz`)
    finished.push('healthz')
    expect(health.status).toBe(200)
    expect((await body).split('\r\n').length).toBe(60_000 + 2)
    expect(finished).toEqual(['healthz', 'export'])
  })

  it('runs two at once per owner; a third is refused with 429 until one ends', async () => {
    const first = await startExport()
    const second = await startExport()
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    const third = await fetch(`${server.url}/api/submissions.csv`)
    expect(third.status).toBe(429)
    expect(await third.json()).toEqual({
      error: 'Exports are already downloading. Wait for one to finish, then try again.',
    })
    first.destroy()
    await expect
      .poll(async () => {
        const again = await fetch(`${server.url}/api/submissions.csv`)
        await again.body?.cancel()
        return again.status
      })
      .toBe(200)
    second.destroy()
  })
})
