import { storedRows } from '#tests/support/database'
import { expect, farmEnv, fillContactForm, openHydrated, test, type Page } from './fixtures'

const visitor = { name: 'Clara Mills', email: 'clara@example.com', message: 'Please tell me when the plums are in.' }

function fillForm(page: Page, values: Partial<typeof visitor> = visitor) {
  return fillContactForm(page, values)
}

test('the home page welcomes visitors and offers the contact form', async ({ page }) => {
  await openHydrated(page, '/')
  await expect(page).toHaveTitle(`${farmEnv.FARM_NAME} — Fresh from our fields`)
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /seasonal produce/)
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)
  await expect(
    page.getByText('Fill out the form to stay updated with our latest products and receive exclusive offers.', {
      exact: true,
    }),
  ).toBeVisible()
  const orchard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Orchard Updates' }) })
  await expect(orchard).toContainText('seasonal produce, farm events and our sustainable farming practices')
  const offers = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Exclusive Offers' }) })
  await expect(offers).toContainText('Early access to limited harvests and special discounts')
  const form = page.getByRole('form', { name: 'Contact Us' })
  for (const label of ['Name', 'Email', 'Message']) await expect(form.getByLabel(label)).toBeVisible()
  await expect(form.getByRole('button', { name: 'Submit' })).toBeEnabled()
})

test('shows every validation message under its field and sends nothing', async ({ page, server }) => {
  await openHydrated(page, '/')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))

  await page.getByRole('button', { name: 'Submit' }).click()
  for (const [label, message] of [
    ['Name', 'Name is required'],
    ['Email', 'Email is required'],
    ['Message', 'Message is required'],
  ] as const) {
    const field = page.getByLabel(label)
    await expect(field).toHaveAttribute('aria-invalid', 'true')
    await expect(field).toHaveAccessibleDescription(message)
  }
  await expect(page.getByLabel('Name')).toBeFocused()

  await fillForm(page, { name: 'Clara', email: 'clara.example.com', message: 'Hi' })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Invalid email format')
  await expect(page.getByText('Name is required')).toHaveCount(0)
  await expect(page.getByLabel('Name')).not.toHaveAttribute('aria-invalid')

  expect(posts).toEqual([])
  expect(storedRows(server.databasePath)).toEqual([])
})

test('while sending, the button is disabled and reads Submitting...; then the fields clear and a toast thanks the visitor', async ({
  page,
  server,
}) => {
  await openHydrated(page, '/')
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let sent: unknown
  await page.route('**/api/submissions', async (route) => {
    sent = route.request().postDataJSON()
    await held
    await route.continue()
  })
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()

  const pending = page.getByRole('button', { name: 'Submitting...' })
  await expect(pending).toBeDisabled()
  release()
  expect(sent).toEqual({ ...visitor, website: '', formToken: expect.stringMatching(/^\d+\.[\w-]+$/) })

  await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled()
  for (const label of ['Name', 'Email', 'Message']) await expect(page.getByLabel(label)).toHaveValue('')
  expect(storedRows(server.databasePath)).toMatchObject([visitor])
})

test('a success answer without a message shows the default toast', async ({ page }) => {
  await openHydrated(page, '/')
  await page.route('**/api/submissions', (route) => route.fulfill({ status: 201, json: {} }))
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Form submitted successfully!')).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue('')
})

test('a refused submission shows the server error and keeps the values', async ({ page }) => {
  await openHydrated(page, '/')
  await page.route('**/api/submissions', (route) =>
    route.fulfill({ status: 503, json: { error: 'The farm inbox is resting. Try again soon.' } }),
  )
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('The farm inbox is resting. Try again soon.')).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue(visitor.name)
  await expect(page.getByLabel('Message')).toHaveValue(visitor.message)
})

test('a refusal without an error text shows the default error toast', async ({ page }) => {
  await openHydrated(page, '/')
  await page.route('**/api/submissions', (route) => route.fulfill({ status: 500, body: 'oops' }))
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Error submitting form.')).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveValue(visitor.email)
})

test('a network failure shows the error toast and keeps the values', async ({ page }) => {
  await openHydrated(page, '/')
  await page.route('**/api/submissions', (route) => route.abort('internetdisconnected'))
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Error submitting form.')).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue(visitor.name)
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled()
})

test('a sent submission is first on Farm Sales, once', async ({ page, server }) => {
  await openHydrated(page, '/')
  await fillForm(page)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Thank you! Your message has reached the farm.')).toBeVisible()

  await page.getByRole('link', { name: 'Farm Sales' }).first().click()
  await expect(page).toHaveURL(`${server.url}/farm-sales`)
  const cards = page.getByTestId('submission-card')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText(visitor.name)
  await expect(cards.first()).toContainText(visitor.message)
})

test('the browser applies the same length and character limits as the server', async ({ page, server }) => {
  await openHydrated(page, '/')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  await fillForm(page, { name: 'N'.repeat(101), email: `${'e'.repeat(243)}@example.com`, message: 'M'.repeat(5001) })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name must be at most 100 characters')
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Email must be at most 254 characters')
  await expect(page.getByLabel('Message')).toHaveAccessibleDescription('Message must be at most 5,000 characters')

  await fillForm(page, { name: 'Nell\u0007', email: visitor.email, message: 'Tabs\tand\nnew lines are fine' })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name must not contain control characters')
  await expect(page.getByLabel('Message')).not.toHaveAttribute('aria-invalid')
  expect(posts).toEqual([])
  expect(storedRows(server.databasePath)).toEqual([])
})
