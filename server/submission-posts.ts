import type { RequestHandler } from 'express'
import { receiveSubmission } from '../app/api/receive-submission.server'

/**
 * POST /api/submissions in its plain spelling, answered without Remix's Request and Response
 * (the benchmark measured about twice the submissions a second). Every other spelling and
 * method reaches the route module, which calls the same receiveSubmission.
 */
export function answerSubmissionPosts(needs: Parameters<typeof receiveSubmission>[0]): RequestHandler {
  return (req, res, next) => {
    const posted = {
      contentType: req.get('Content-Type') ?? null,
      // limitBody has read it, within its limit.
      body: (res.locals.body as Buffer | undefined) ?? new Uint8Array(),
      clientAddress: req.ip ?? '',
    }
    receiveSubmission(needs, posted).then(({ status, body, headers }) => {
      res.status(status).set(headers).json(body)
    }, next)
  }
}
