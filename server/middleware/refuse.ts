import type { Request, Response } from 'express'
import { errorBody } from '#app/http/json.server'

/** Answers an error as JSON to API callers and as plain text to a browser posting a page form. */
export function refuse(req: Request, res: Response, status: number, error: string) {
  const wantsPage = !req.path.toLowerCase().startsWith('/api/') && (req.get('Accept') ?? '').includes('text/html')
  if (wantsPage) res.status(status).type('text/plain').send(error)
  else res.status(status).json(errorBody(error))
}
