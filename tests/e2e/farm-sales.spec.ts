import Sqlite from 'better-sqlite3'
import { startServer } from '#tests/support/server'
import {
  expect,
  farmEnv,
  fillContactForm,
  openHydrated,
  type Page,
  postSubmission,
  test,
  type WebSocket,
} from './fixtures'

test('lists every submission newest first with its AI analysis', async ({ page, server }) => {
  await postSubmission(server, { name: 'Oldest', message: 'Any honey?' })
  const { aiResponse, analysis } = await postSubmission(server, {
    name: 'Middle',
    email: 'middle@example.com',
    message: 'Please keep two dozen eggs and a jar of honey for me, I will collect them tomorrow morning.',
  })
  await postSubmission(server, { name: 'Newest', message: 'Pumpkins for Halloween?' })

  await openHydrated(page, '/farm-sales')
  await expect(page).toHaveTitle('Farm Sales Data')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Farm Sales Data')
  await expect(page.getByText('Review customer submissions and AI-powered insights.')).toBeVisible()
  const cards = page.getByTestId('submission-card')
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText(['Newest', 'Middle', 'Oldest'])
  const middle = cards.nth(1)
  await expect(middle).toContainText('middle@example.com')
  await expect(middle).toContainText('Please keep two dozen eggs and a jar of honey for me')
  await expect(middle.getByRole('heading', { name: 'AI Analysis' })).toBeVisible()
  expect(aiResponse).toBeTruthy()
  await expect(middle.getByText(aiResponse!, { exact: true })).toBeVisible()
  expect(analysis).toMatchObject({ urgency: { level: 'high' }, products: ['eggs', 'honey'] })
  const tags = middle.getByRole('list', { name: 'Tags' }).getByRole('listitem')
  await expect(tags.first()).toHaveText('Urgent')
  await expect(tags.filter({ hasText: /^eggs$/ })).toHaveCount(1)
  await expect(tags.filter({ hasText: /^honey$/ })).toHaveCount(1)
  await expect(tags.filter({ hasText: 'Likely spam' })).toHaveCount(0)
})

test('a submission without an analysis shows no AI Analysis block', async ({ page, server }) => {
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare('INSERT INTO submissions (name, email, message, created_at) VALUES (?, ?, ?, ?)')
    .run('Plain', 'plain@example.com', 'Just saying hello.', Date.now())
  sqlite.close()
  await openHydrated(page, '/farm-sales')
  await expect(page.getByTestId('submission-card')).toContainText('Just saying hello.')
  await expect(page.getByText('AI Analysis')).toHaveCount(0)
})

test('shows the empty state when there are no submissions', async ({ page }) => {
  await openHydrated(page, '/farm-sales')
  await expect(page.getByText('No submissions yet.')).toBeVisible()
  await expect(page.getByText('Submissions will appear here once customers fill out the contact form.')).toBeVisible()
  await expect(page.getByTestId('submission-card')).toHaveCount(0)
})

test('when the list cannot be loaded it logs why and shows the empty state', async ({ page, server }) => {
  const sqlite = new Sqlite(server.databasePath)
  sqlite.exec('ALTER TABLE submissions RENAME TO submissions_moved')
  sqlite.close()
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  const response = await openHydrated(page, '/farm-sales')
  expect(response?.status()).toBe(200)
  await expect(page.getByText('No submissions yet.')).toBeVisible()
  await expect.poll(() => logged).toContain('Failed to fetch submissions')
})

test('a new submission arrives live from another visitor in under a second, once', async ({
  page,
  browser,
  server,
}) => {
  await postSubmission(server, { name: 'Earlier' })
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  expect((await opened).url()).toBe(server.wsUrl)

  const visitor = await browser.newContext({ baseURL: server.url })
  const visitorPage = await visitor.newPage()
  await openHydrated(visitorPage, '/')
  await fillContactForm(visitorPage, {
    name: 'Live Larry',
    email: 'larry@example.com',
    message: 'Is the farm shop open on Sunday?',
  })
  await visitorPage.getByRole('button', { name: 'Submit' }).click()
  await expect(visitorPage.getByText('Thank you! Your message has reached the farm.')).toBeVisible()

  const cards = page.getByTestId('submission-card')
  await expect(cards.first()).toContainText('Live Larry', { timeout: 1_000 })
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText(['Live Larry', 'Earlier'])
  await visitor.close()

  // Leaving and coming back merges the loaded list with what arrived live: still one card each.
  await page.getByRole('link', { name: 'Home' }).first().click()
  await page.getByRole('link', { name: 'Farm Sales' }).first().click()
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText(['Live Larry', 'Earlier'])
})

test('the live socket is opened by Farm Sales only, once, and closed on leaving', async ({ page, server }) => {
  const sockets: WebSocket[] = []
  page.on('websocket', (socket) => sockets.push(socket))

  await openHydrated(page, '/')
  await page.waitForLoadState('networkidle')
  expect(sockets).toHaveLength(0)

  await page.getByRole('link', { name: 'Farm Sales' }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Farm Sales Data')
  await expect.poll(() => sockets.length).toBe(1)
  expect(sockets[0]!.url()).toBe(server.wsUrl)
  const closed = sockets[0]!.waitForEvent('close')

  await page.getByRole('link', { name: 'Home' }).first().click()
  await closed
  expect(sockets[0]!.isClosed()).toBe(true)
  await page.waitForLoadState('networkidle')
  expect(sockets).toHaveLength(1)
})

test('other live message types are logged, not listed', async ({ page }) => {
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  await page.routeWebSocket(/\/$/, (socket) => {
    socket.send(JSON.stringify({ type: 'HARVEST_REPORT', data: { crates: 3 } }))
  })
  await openHydrated(page, '/farm-sales')
  await expect.poll(() => logged).toContain('Unknown live message type: HARVEST_REPORT')
  await expect(page.getByTestId('submission-card')).toHaveCount(0)
})

/** The transform of every card, frame by frame, for a second from the first paint (the first page enters by CSS). */
async function cardTransformsFromFirstPaint(page: Page): Promise<string[][]> {
  await page.addInitScript(() => {
    const frames: string[][] = []
    ;(window as unknown as { frames: string[][] }).frames = frames
    const sample = () => {
      const cards = [...document.querySelectorAll('[data-testid="submission-card"]')]
      // Once the whole list is parsed: a frame with half the cards would read as the others moving.
      if (cards.length && document.readyState !== 'loading') {
        frames.push(cards.map((card) => getComputedStyle(card).transform))
      }
      if (frames.length < 60) requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
  await openHydrated(page, '/farm-sales')
  await page.waitForFunction(() => (window as unknown as { frames: string[][] }).frames.length >= 60)
  return page.evaluate(() => (window as unknown as { frames: string[][] }).frames)
}

const startOffset = 'matrix(1, 0, 0, 1, 0, 16)'
const isInBetween = (transform: string) => transform !== 'none' && transform !== startOffset

test('cards rise into place, one after another', async ({ page, server }) => {
  for (const name of ['Third', 'Second', 'First']) await postSubmission(server, { name })
  const frames = await cardTransformsFromFirstPaint(page)
  // How far each card still is from its place (16 px down at the start, none at rest). They start
  // 100 ms apart, so in every sampled frame a card is at least as far along as the one after it,
  // and in some the first is ahead of the third. (A busy machine may sample its first frame late,
  // once all three have started: the order holds in every frame whenever it was taken.)
  const offset = (transform: string) =>
    transform === 'none' ? 0 : Number(transform.split(',').at(-1)!.replace(')', ''))
  for (const frame of frames) {
    const [first, second, third] = frame.map(offset)
    expect(first).toBeLessThanOrEqual(second!)
    expect(second).toBeLessThanOrEqual(third!)
  }
  expect(frames.some((frame) => offset(frame[0]!) < offset(frame[2]!))).toBe(true)
  expect(frames.flat().filter(isInBetween).length).toBeGreaterThan(2)
  expect(frames.at(-1)).toEqual(['none', 'none', 'none'])
})

test('cards skip the entrance movement when the visitor prefers reduced motion', async ({ page, server }) => {
  for (const name of ['Second', 'First']) await postSubmission(server, { name })
  await page.emulateMedia({ reducedMotion: 'reduce' })
  const frames = await cardTransformsFromFirstPaint(page)
  expect(frames.flat().filter(isInBetween)).toEqual([])
  expect(frames.at(-1)).toEqual(['none', 'none'])
})

test('a card that arrives live is shown even when its animation cannot load', async ({ page, server }) => {
  await postSubmission(server, { name: 'Ann' })
  // framer-motion comes in its own chunk with the first card that arrives after the page; a
  // dropped request must not hide that card. The page's own cards never ask for it.
  let dropped = 0
  await page.route(/\/build\/_shared\/card-motion-[\w-]+\.js$/, (route) => {
    dropped++
    return route.abort()
  })
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  await opened
  await expect(page.getByTestId('submission-card')).toHaveCSS('opacity', '1')
  expect(dropped).toBe(0)
  await postSubmission(server, { name: 'Bob' })
  const live = page.getByTestId('submission-card').first()
  await expect(live).toContainText('Bob')
  await expect(live).toHaveCSS('opacity', '1')
  await expect(live).toHaveCSS('transform', 'none')
  expect(dropped).toBe(1)
})

test('the owner misses nothing across a server restart: the page reconnects and catches up', async ({
  page,
  server,
}) => {
  await postSubmission(server, { name: 'Before' })
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  const firstSocket = await opened
  const cards = page.getByTestId('submission-card').getByRole('heading', { level: 2 })
  await expect(cards).toHaveText(['Before'])

  // The page hears the close a moment after the server has gone.
  const closed = firstSocket.waitForEvent('close')
  expect(await server.stop('SIGTERM')).toBe(0)
  await closed
  expect(firstSocket.isClosed()).toBe(true)
  // Stored while the server was down, so no live message will ever carry it.
  const sqlite = new Sqlite(server.databasePath)
  sqlite
    .prepare('INSERT INTO submissions (name, email, message, created_at) VALUES (?, ?, ?, ?)')
    .run('While Down', 'down@example.com', 'Are you open?', Date.now())
  sqlite.close()

  const restarted = await startServer({ databasePath: server.databasePath, port: server.port, env: farmEnv })
  try {
    // The page's attempts while the server was down back off (up to 8 s apart by the fifth,
    // on a busy machine), so the one that finds it up may come that much later.
    await expect(cards).toHaveText(['While Down', 'Before'], { timeout: 15_000 })
    await postSubmission(restarted, { name: 'After' })
    await expect(cards).toHaveText(['After', 'While Down', 'Before'])
  } finally {
    await restarted.stop()
  }
})

test('a change made between the page being read and its live link opening shows once the link opens', async ({
  page,
  server,
}) => {
  const ann = await postSubmission(server, { name: 'Ann' })
  // The page's scripts are held, so its link cannot open before another tab's change is made.
  let releaseScripts!: () => void
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve))
  await page.route('**/build/**', async (route) => {
    await scriptsHeld
    await route.continue()
  })
  await page.goto('/farm-sales', { waitUntil: 'commit' })
  const annsButton = page.getByTestId('submission-card').filter({ hasText: 'Ann' }).getByRole('button')
  await expect(annsButton).toHaveText('Mark handled')

  const handled = await fetch(`${server.url}/api/submissions/${ann.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'handled' }),
  })
  expect(handled.status).toBe(200)
  const opened = page.waitForEvent('websocket')
  releaseScripts()
  await opened
  await expect(annsButton).toHaveText('Mark as new')
})

test('a tab that was offline shows the truth after it reconnects, not what its live link said before', async ({
  page,
  server,
}) => {
  const ann = await postSubmission(server, { name: 'Ann' })
  await postSubmission(server, { name: 'Bob' })
  const opened = page.waitForEvent('websocket')
  await openHydrated(page, '/farm-sales')
  const socket = await opened
  const card = (name: string) => page.getByTestId('submission-card').filter({ hasText: name })
  // A new card offers "Mark handled", a handled one "Mark as new".
  const isNew = (name: string) => expect(card(name).getByRole('button')).toHaveText('Mark handled')
  const isHandled = (name: string, timeout?: number) =>
    expect(card(name).getByRole('button')).toHaveText('Mark as new', { timeout })
  await isNew('Ann')

  // Another tab marks Ann handled: this tab hears it over the live link.
  const handled = await fetch(`${server.url}/api/submissions/${ann.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'handled' }),
  })
  expect(handled.status).toBe(200)
  await isHandled('Ann')

  // While the link is down, Ann is marked new again and Bob handled: no live message says so.
  // The page hears the close a moment after the server has gone.
  const closed = socket.waitForEvent('close')
  expect(await server.stop('SIGTERM')).toBe(0)
  await closed
  expect(socket.isClosed()).toBe(true)
  const sqlite = new Sqlite(server.databasePath)
  sqlite.prepare("UPDATE submissions SET status = 'new' WHERE name = 'Ann'").run()
  sqlite.prepare("UPDATE submissions SET status = 'handled' WHERE name = 'Bob'").run()
  sqlite.close()

  const restarted = await startServer({ databasePath: server.databasePath, port: server.port, env: farmEnv })
  try {
    // The reconnect may come up to 8 s after the restart (the page backs off while the server is down).
    await isHandled('Bob', 15_000)
    await isNew('Ann')
  } finally {
    await restarted.stop()
  }
})
