// The farm's page on the real server: its pages clean in the Nu HTML Checker (npm vnu-jar, Java),
// written, refused and previewed, and the home page it makes.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { htmlErrors } from '#tests/support/html-checker'
import { fullPageWords } from '#tests/support/home-page'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort } from '#tests/support/server'
import { serverPerTest } from '#tests/support/server-per-test'

const start = serverPerTest()

describe('the farm’s page', () => {
  it('the home page, the editor (also refusing), and the preview are clean in the Nu HTML Checker', async () => {
    const port = await freePort()
    const server = await start({
      port,
      env: { OWNER_PASSWORD: ownerPassword, FARM_TIME_ZONE: 'Europe/London', PUBLIC_URL: `http://127.0.0.1:${port}` },
    })
    const cookie = await signInAsOwner(server.url, ownerPassword)
    const postPage = (fields: Record<string, string>, intent: string) =>
      fetch(`${server.url}/farm-sales/page`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
        body: new URLSearchParams({ ...fields, intent }),
      })
    const dir = mkdtempSync(join(tmpdir(), 'vnu-'))
    const files: string[] = []
    const keep = async (name: string, answer: Response, status: number) => {
      expect(answer.status, name).toBe(status)
      const file = join(dir, `${name}.html`)
      writeFileSync(file, await answer.text())
      files.push(file)
    }
    await keep('fresh home page', await fetch(`${server.url}/`), 200)
    await keep('fresh editor', await fetch(`${server.url}/farm-sales/page`, { headers: { Cookie: cookie } }), 200)
    await keep(
      'editor refusing',
      await postPage({ ...fullPageWords, story: '[x](javascript:alert%281%29)' }, 'publish'),
      400,
    )
    expect((await postPage(fullPageWords, 'preview')).status).toBe(303)
    await keep('preview', await fetch(`${server.url}/farm-sales/page/preview`, { headers: { Cookie: cookie } }), 200)
    await keep(
      'editor with a draft',
      await fetch(`${server.url}/farm-sales/page`, { headers: { Cookie: cookie } }),
      200,
    )
    expect((await postPage(fullPageWords, 'publish')).status).toBe(303)
    await keep('home page', await fetch(`${server.url}/`), 200)
    expect(htmlErrors(files)).toEqual([])
  })
})
