import type { RequestHandler } from 'express'
import type { Subscribers } from '#app/updates/subscribers.server'
import { testToken } from '#app/updates/update-requests.server'

/**
 * A mail program's one-click unsubscribe (RFC 8058): a POST to the List-Unsubscribe address with
 * the body `List-Unsubscribe=One-Click`, from the provider's servers or a webmail page, so from
 * any origin and with no cookie; the signed token in the address is what allows it. Answered here,
 * before the same-origin guard, and only for that body: the page's own buttons (Undo among them)
 * go on to the guard and Remix.
 */
export function answerOneClickUnsubscribes(subscribers: Subscribers): RequestHandler {
  return (req, res, next) => {
    const body = new Uint8Array((res.locals.body as Buffer | undefined) ?? [])
    const contentType = req.get('Content-Type') ?? ''
    new Request('http://localhost/', { method: 'POST', headers: { 'Content-Type': contentType }, body })
      .formData()
      .catch(() => null)
      .then(async (form) => {
        if (form?.get('List-Unsubscribe') !== 'One-Click' || form.has('intent')) return next()
        const token = new URL(req.originalUrl, 'http://localhost').searchParams.get('token') ?? ''
        // The owner's test mail: its link works, and changes nothing.
        if (token === testToken) {
          return void res.status(200).type('text/plain').send('This is a test mail’s link: it changes nothing.')
        }
        const done = await subscribers.unsubscribe(token)
        res
          .status(done?.ok ? 200 : 400)
          .type('text/plain')
          .send(
            done?.ok
              ? 'Unsubscribed: this address gets no more updates.'
              : 'This link does not work. Nothing was changed.',
          )
      })
      .catch(next)
  }
}
