import { createHmac } from 'node:crypto'
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { stripes, uploadPhoto } from './photos'
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

/** A farm's products in season, and the first twelve's week as the owner sets it on a phone. */
const seasonal = [
  ['eggs', 'available', '4', 'a dozen', 'Brown and white, laid this week.'],
  ['honey', 'few-left', '8', 'a jar', 'Spring blossom, set and runny.'],
  ['strawberries', 'coming-soon', '5', 'a punnet', ''],
  ['raspberries', 'sold-out', '5', 'a punnet', 'Back next Saturday.'],
  ['apples', 'available', '3', 'a kilo', 'Bramley and Cox.'],
  ['pears', 'available', '3.5', 'a kilo', ''],
  ['potatoes', 'available', '2', 'a bag', 'Maris Piper, 2.5 kg bags.'],
  ['carrots', 'available', '1.5', 'a bunch', ''],
  ['lettuce', 'few-left', '1.2', 'a head', ''],
  ['tomatoes', 'out-of-season', '4', 'a kilo', 'From July.'],
  ['pumpkins', 'available', '3', 'each', 'Carving and eating.'],
  ['cheese', 'available', '6', 'a wedge', 'Our own cheddar, aged a year.'],
] as const

/** `count` products: the twelve above, then market boxes. */
export const farmProducts = (count: number) =>
  Array.from({ length: count }, (_, index) => seasonal[index]?.[0] ?? `market box ${index + 1}`)

const postForm = (url: string, cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: url },
    body: new URLSearchParams(fields),
  })

/**
 * A home page as a farm in season fills it, through the owner's own ways: the page's words,
 * `photos` photos (1600 × 1067 JPEGs) and a week's list of `products` products.
 */
export async function furnishHomePage(url: string, cookie: string, { photos = 6, products = 12 } = {}) {
  const names = farmProducts(products)
  const settings = await fetch(`${url}/api/settings`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ FARM_PRODUCTS: names.join('\n') }),
  })
  if (settings.status !== 200) throw new Error(`Setting the products answered ${settings.status}`)
  await publishPageWords(url, cookie)
  for (let photo = 1; photo <= photos; photo++) {
    const bytes = await stripes(1600, 1067, photo * 7)
      .jpeg({ quality: 85 })
      .toBuffer()
    const answer = await uploadPhoto({ url } as RunningServer, cookie, bytes, {
      alt: `The farm in season, view ${photo}`,
    })
    if (answer.status >= 400) throw new Error(`Photo ${photo} answered ${answer.status}`)
  }
  for (const [index, product] of names.entries()) {
    const [, availability, price, unit, note] = seasonal[index % seasonal.length]!
    const answer = await postForm(url, cookie, '/farm-sales/this-week', {
      product,
      availability,
      price,
      unit,
      note,
      readyFrom: '',
    })
    if (answer.status !== 303) throw new Error(`The week's ${product} answered ${answer.status}`)
  }
}

/**
 * The fullest home page a site can show, made through the owner's own ways: the bench's "full"
 * time to first byte. A long name, every word of the page, 12 photos and 100 products on the week's list.
 */
export async function fillHomePage(url: string, cookie: string) {
  await renameFarm({ url }, cookie, 'Bramble Hill Farm & Orchard — eggs, honey, apples and a veg box every week')
  await furnishHomePage(url, cookie, { photos: 12, products: 100 })
}
