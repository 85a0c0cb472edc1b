import type { RequestHandler } from 'express'
import type { ReceiveNeeds } from '#app/submissions/receive.server'
import { receiveJson } from '#app/submissions/receive-json.server'

/**
 * POST /api/submissions in its plain spelling, answered without Remix's Request and Response
 * (the benchmark measured about twice the submissions a second): the same adapter the route
 * module calls for every other spelling and method, so every limit holds on either way in.
 */
export function answerSubmissionPosts(needs: ReceiveNeeds): RequestHandler {
  return (req, res, next) => {
    const posted = {
      contentType: req.get('Content-Type') ?? null,
      // limitBody has read it, within its limit.
      body: (res.locals.body as Buffer | undefined) ?? new Uint8Array(),
      clientAddress: req.ip ?? '',
    }
    receiveJson(needs, posted).then(({ status, body, headers }) => {
      res.status(status).set(headers).json(body)
    }, next)
  }
}
