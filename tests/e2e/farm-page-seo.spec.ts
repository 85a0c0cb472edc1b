import jsonld from 'jsonld'
import type { LocalBusiness, WithContext } from 'schema-dts'
import { ownerPassword, signInAsOwner } from '#tests/support/owner'
import { freePort, startServer, type RunningServer } from '#tests/support/server'
import { test as base, expect, farmEnv } from './fixtures'

const schema = 'https://schema.org/'

/** schema.org's context without the network: every term is a schema.org name (its context's @vocab). */
const offlineLoader = async (url: string) => {
  if (url.replace(/\/?$/, '/') !== schema) throw new Error(`No fetching ${url} in a test`)
  return { contextUrl: undefined, documentUrl: url, document: { '@context': { '@vocab': schema } } }
}

const test = base.extend<{ server: RunningServer }>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const port = await freePort()
    const env = {
      ...farmEnv,
      OWNER_PASSWORD: ownerPassword,
      FARM_TIME_ZONE: 'Europe/London',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }
    const server = await startServer({ port, env })
    await use(server)
    await server.stop()
  },
})
test.use({ javaScriptEnabled: false })

async function publish(server: RunningServer, fields: Record<string, string>) {
  const answer = await fetch(`${server.url}/farm-sales/page?_data=routes%2Ffarm-sales_.page`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: await signInAsOwner(server.url, ownerPassword),
    },
    body: new URLSearchParams({
      intent: 'publish',
      welcome: 'Welcome to',
      intro: 'Eggs, honey and apples from the hill.',
      'card-0-title': '{product} Updates',
      'card-0-text': 'What is ripe.',
      'card-1-title': 'Exclusive Offers',
      'card-1-text': 'Early access.',
      ...fields,
    }),
  })
  expect(answer.status).toBe(204)
}

test('the JSON-LD is a schema.org LocalBusiness that says what the page shows', async ({ page, server }) => {
  await publish(server, {
    'opens-4': '09:00',
    'closes-4': '18:00',
    'opens-5': '09:00',
    'closes-5': '13:00',
    'exception-from-0': '2099-12-24',
    'exception-to-0': '2099-12-26',
    'exception-note-0': 'Christmas',
    'exception-from-1': '2099-06-14',
    'exception-opens-1': '14:00',
    'exception-closes-1': '18:00',
    'exception-note-1': 'strawberry day',
    address: 'Bramble Hill Farm\nLong Lane\nHaytown HT1 2AB',
    phone: '+44 1234 567 890',
  })
  await page.goto('/')
  const canonical = `${server.url}/`
  const expected: WithContext<LocalBusiness> = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: farmEnv.FARM_NAME,
    description: 'Eggs, honey and apples from the hill.',
    url: canonical,
    '@id': `${canonical}#farm`,
    address: { '@type': 'PostalAddress', streetAddress: 'Bramble Hill Farm, Long Lane, Haytown HT1 2AB' },
    telephone: '+44 1234 567 890',
    openingHoursSpecification: [
      { '@type': 'OpeningHoursSpecification', dayOfWeek: `${schema}Friday`, opens: '09:00', closes: '18:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: `${schema}Saturday`, opens: '09:00', closes: '13:00' },
      {
        '@type': 'OpeningHoursSpecification',
        validFrom: '2099-06-14',
        validThrough: '2099-06-14',
        opens: '14:00',
        closes: '18:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        validFrom: '2099-12-24',
        validThrough: '2099-12-26',
        opens: '00:00',
        closes: '00:00',
      },
    ],
  }
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
  expect(blocks).toHaveLength(1)
  const document = JSON.parse(blocks[0]!) as WithContext<LocalBusiness>
  expect(document).toEqual(expected)

  // Read as linked data: every term is schema.org's, nothing dropped, the types as named.
  const [farm] = (await jsonld.expand(document as object, { documentLoader: offlineLoader as never })) as Array<
    Record<string, unknown>
  >
  expect(farm!['@type']).toEqual([`${schema}LocalBusiness`])
  expect(farm!['@id']).toBe(`${canonical}#farm`)
  for (const key of Object.keys(farm!).filter((key) => !key.startsWith('@')))
    expect(key.startsWith(schema), key).toBe(true)
  const quads = await jsonld.toRDF(document as object, {
    format: 'application/n-quads',
    documentLoader: offlineLoader as never,
  })
  expect(quads).toContain(`<${canonical}#farm> <${schema}telephone> "+44 1234 567 890" .`)
  expect(quads).toContain(`<${schema}dayOfWeek> "${schema}Saturday" .`)

  // And it says what the page shows: the same name, phone, address and hours as the document above.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)
  await expect(page.getByRole('link', { name: '+44 1234 567 890' })).toHaveText('+44 1234 567 890')
  await expect(page.locator('address')).toHaveText('Bramble Hill Farm\nLong Lane\nHaytown HT1 2AB')
  await expect(page.getByRole('row', { name: 'Friday 9:00–18:00' })).toBeVisible()
  await expect(page.getByRole('row', { name: 'Saturday 9:00–13:00' })).toBeVisible()
  await expect(page.getByText('Open Sunday 14 June, 14:00–18:00: strawberry day')).toBeVisible()
  await expect(page.getByText('Closed 24–26 December: Christmas')).toBeVisible()
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical)
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical)
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    'content',
    `${farmEnv.FARM_NAME} — Fresh from our fields`,
  )
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website')
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary')
  await expect(page.locator('meta[name="twitter:title"]')).toHaveAttribute(
    'content',
    `${farmEnv.FARM_NAME} — Fresh from our fields`,
  )
})

test('the sitemap lists the home page at PUBLIC_URL, changed when the page was published', async ({ page, server }) => {
  await publish(server, {})
  const answer = await page.request.get('/sitemap.xml')
  expect(answer.headers()['content-type']).toBe('application/xml; charset=utf-8')
  const xml = await answer.text()
  expect(xml).toMatch(
    new RegExp(
      `<url><loc>${server.url.replace(/\./g, '\\.')}/</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z</lastmod></url>`,
    ),
  )
})
