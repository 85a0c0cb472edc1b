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
  /** Origins besides the site's own that may post forms and open the live link. */
  allowedOrigins: string[]
  /** Express's `trust proxy`: false unless TRUST_PROXY is set. */
  trustProxy: boolean | number | string
  submissionsPerMinute: number
  minFillSeconds: number
  ownerPassword: string | undefined
  sessionSecret: string | undefined
}

/** Every setting the site reads, with its default; the README lists the same. */
export const defaults = {
  PORT: '3000',
  HOST: '0.0.0.0',
  DATABASE_PATH: './data/farm.db',
  FARM_NAME: 'Willow Creek Farm',
  FARM_PRODUCT: 'Seasonal Produce',
  ALLOWED_ORIGINS: '',
  TRUST_PROXY: '',
  SUBMISSION_RATE_LIMIT: '10',
  MIN_FILL_SECONDS: '3',
} as const

function text(env: Environment, key: keyof typeof defaults): string {
  const value = env[key]?.trim()
  return value ? value : defaults[key]
}

function wholeNumber(env: Environment, key: keyof typeof defaults, min: number, max: number): number {
  const value = Number(text(env, key))
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${key} must be a whole number from ${min} to ${max}, not "${env[key]}"`)
  }
  return value
}

function origins(env: Environment): string[] {
  return text(env, 'ALLOWED_ORIGINS')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      let url: URL
      try {
        url = new URL(origin)
      } catch {
        throw new Error(`ALLOWED_ORIGINS holds "${origin}", which is not an origin such as https://farm.example`)
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`ALLOWED_ORIGINS holds "${origin}", which is not http or https`)
      }
      return url.origin
    })
}

function trustProxy(env: Environment): Config['trustProxy'] {
  const value = text(env, 'TRUST_PROXY')
  if (value === '' || value === 'false') return false
  if (value === 'true') return 1
  if (/^\d+$/.test(value)) return Number(value)
  return value
}

function secret(env: Environment, key: string): string | undefined {
  return env[key] ? env[key] : undefined
}

export function readConfig(env: Environment = process.env): Config {
  return {
    mode: env.NODE_ENV === 'development' ? 'development' : 'production',
    port: wholeNumber(env, 'PORT', 0, 65535),
    host: text(env, 'HOST'),
    databasePath: text(env, 'DATABASE_PATH'),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    farmName: text(env, 'FARM_NAME'),
    farmProduct: text(env, 'FARM_PRODUCT'),
    allowedOrigins: origins(env),
    trustProxy: trustProxy(env),
    submissionsPerMinute: wholeNumber(env, 'SUBMISSION_RATE_LIMIT', 1, 10_000),
    minFillSeconds: wholeNumber(env, 'MIN_FILL_SECONDS', 0, 600),
    ownerPassword: secret(env, 'OWNER_PASSWORD'),
    sessionSecret: secret(env, 'SESSION_SECRET'),
  }
}
