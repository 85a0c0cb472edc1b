import { fileURLToPath } from 'node:url'

type Environment = Record<string, string | undefined>

export interface Config {
  mode: 'production' | 'development'
  port: number
  host: string
  databasePath: string
  migrationsFolder: string
  farmName: string
  farmProduct: string
}

/** Every setting the site reads, with its default; the README lists the same. */
export const defaults = {
  PORT: '3000',
  HOST: '0.0.0.0',
  DATABASE_PATH: './data/farm.db',
  FARM_NAME: 'Willow Creek Farm',
  FARM_PRODUCT: 'Seasonal Produce',
} as const

function text(env: Environment, key: keyof typeof defaults): string {
  const value = env[key]?.trim()
  return value ? value : defaults[key]
}

export function readConfig(env: Environment = process.env): Config {
  const port = Number(text(env, 'PORT'))
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not "${env.PORT}"`)
  }
  return {
    mode: env.NODE_ENV === 'development' ? 'development' : 'production',
    port,
    host: text(env, 'HOST'),
    databasePath: text(env, 'DATABASE_PATH'),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    farmName: text(env, 'FARM_NAME'),
    farmProduct: text(env, 'FARM_PRODUCT'),
  }
}
