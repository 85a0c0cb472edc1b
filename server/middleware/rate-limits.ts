import type { RequestHandler } from 'express'
import { rateLimit } from 'express-rate-limit'
import { refuse } from './refuse'

function perMinute(limit: number, error: string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    handler: (req, res) => refuse(req, res, 429, error),
  })
}

export function limitSubmissions(perAddress: number): RequestHandler {
  return perMinute(perAddress, 'Too many submissions from your address. Please wait a minute and try again.')
}

export function limitSignIns(): RequestHandler {
  return perMinute(5, 'Too many sign-in attempts. Please wait a minute and try again.')
}
