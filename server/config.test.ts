import { describe, expect, it } from 'vitest'
import { defaults, readConfig } from './config'

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    const config = readConfig({})
    expect(config).toMatchObject({
      mode: 'production',
      port: 3000,
      host: '0.0.0.0',
      databasePath: './data/farm.db',
      farmName: defaults.FARM_NAME,
      farmProduct: defaults.FARM_PRODUCT,
    })
  })

  it('reads every setting from the environment', () => {
    const config = readConfig({
      NODE_ENV: 'development',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_PATH: '/data/farm.db',
      FARM_NAME: 'Hillside Farm',
      FARM_PRODUCT: 'Honey',
    })
    expect(config).toMatchObject({
      mode: 'development',
      port: 8080,
      host: '127.0.0.1',
      databasePath: '/data/farm.db',
      farmName: 'Hillside Farm',
      farmProduct: 'Honey',
    })
  })

  it.each(['eighty', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT must be a whole number/)
  })
})
