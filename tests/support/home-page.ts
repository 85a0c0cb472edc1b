import { createHmac } from 'node:crypto'
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { RunningServer } from './server'

/** The key the form's tokens are signed with on the home page's test sites (SESSION_SECRET). */
export const tokenSecret = 'home-page-tokens-are-signed-with-this'

export interface PageAnswer {
  status: number
  /** The headers as sent, names in their own spelling, in their order. */
  rawHeaders: string[]
  /** The body as it came, and opened from its Content-Encoding. */
  sent: Buffer
  html: string
  nonce: string
  token: string
}

/** GET (or another method) of a path with exactly these headers, on a connection of its own. */
export function getPage(server: RunningServer, path = '/', headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<PageAnswer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const sent = Buffer.concat(chunks)
        const encoding = res.headers['content-encoding']
        const opened =
          encoding === 'br'
            ? brotliDecompressSync(sent)
            : encoding === 'gzip'
              ? gunzipSync(sent)
              : encoding === 'deflate'
                ? inflateSync(sent)
                : sent
        const html = opened.toString('utf8')
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          sent,
          html,
          nonce: /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '',
          token: /name="formToken" value="([^"]+)"/.exec(html)?.[1] ?? '',
        })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Whether a form token was signed by this site, and when it says it was handed out. */
export function tokenIssuedAt(token: string): number | null {
  const [time = '', signature = ''] = token.split('.')
  const expected = createHmac('sha256', tokenSecret).update(time).digest('base64url')
  return signature === expected ? Number(time) : null
}

/** How many times the site has kept a version of its home page so far. */
export const keptCount = (server: RunningServer) => server.output().split('kept the home page for visitors').length - 1

/**
 * The page with this answer's own nonce and token taken out, and its headers with the Date and
 * the nonce taken out: what a kept answer and a rendered one must share to the byte.
 */
export function withoutOwnValues(answer: PageAnswer) {
  const strip = (text: string) => text.replaceAll(answer.nonce, 'NONCE').replaceAll(answer.token, 'TOKEN')
  const headers: string[] = []
  for (let index = 0; index < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index]!
    if (name.toLowerCase() !== 'date') headers.push(`${name}: ${strip(answer.rawHeaders[index + 1]!)}`)
  }
  return { status: answer.status, headers, html: strip(answer.html) }
}

/** Changes the farm's name through the settings API, as the settings page does. */
export async function renameFarm(server: Pick<RunningServer, 'url'>, cookie: string, name: string) {
  const response = await fetch(`${server.url}/api/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ FARM_NAME: name }),
  })
  if (response.status !== 200) throw new Error(`Renaming the farm answered ${response.status}`)
}

/** The page's words as the editor at /farm-sales/page posts them: every part filled. */
export const fullPageWords = {
  welcome: 'Good morning from',
  intro: 'Eggs, honey and apples from the hill.',
  'card-0-title': '{product} Updates',
  'card-0-text': 'What is ripe.',
  'card-1-title': 'Exclusive Offers',
  'card-1-text': 'Early access.',
  story: 'My grandmother planted the orchard.\n\nFind us at [the market](https://market.example/).',
  'opens-5': '09:00',
  'closes-5': '13:00',
  'exception-from-0': '2099-12-24',
  'exception-to-0': '2099-12-26',
  'exception-note-0': 'Christmas',
  address: 'Bramble Hill Farm\nLong Lane',
  directions: 'The second gate after the church.',
  phone: '+44 1234 567 890',
}

/** Publishes the page's words through the editor, as the owner does. */
export async function publishPageWords(url: string, cookie: string, words: Record<string, string> = fullPageWords) {
  const response = await fetch(`${url}/farm-sales/page`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: url },
    body: new URLSearchParams({ ...words, intent: 'publish' }),
  })
  if (response.status !== 303) throw new Error(`Publishing the page answered ${response.status}`)
}

/**
 * The fullest home page a site can show, made through the owner's own ways: the bench's "full"
 * time to first byte. Today that is the farm's name and the page's words; the week's list (100
 * products) and the photos (12) are added here as they come, so the bench row follows them.
 */
export async function fillHomePage(url: string, cookie: string) {
  await renameFarm({ url }, cookie, 'Bramble Hill Farm & Orchard — eggs, honey, apples and a veg box every week')
  await publishPageWords(url, cookie)
}
