import { expect, farmEnv, test } from './fixtures'

test('the home page welcomes visitors by the farm name', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to ${farmEnv.FARM_NAME}`)
})
