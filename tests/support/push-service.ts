// A push service on loopback, over HTTPS with a certificate made here and trusted by the site only
// through NODE_EXTRA_CA_CERTS (verification is never turned off). It plays the browser's side too:
// it holds each subscription's private key, so it decrypts what it receives with http_ece, and it
// checks each request's VAPID token as a real push service would.
import { execFileSync } from 'node:child_process'
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ece from 'http_ece'
import { freePort } from './server'

export interface ReceivedPush {
  phone: string
  headers: IncomingHttpHeaders
  /** The decrypted payload, parsed. */
  message: Record<string, unknown>
  /** The VAPID token's claims and the key it was signed with, once its signature checked out. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string }
  /** What the service answered (null: it never did). */
  answered: number | null
  at: number
}

type Answer = number | null | { status: number; afterMs: number }

export interface PushService {
  origin: string
  /** The PUSH_HOSTS entry the site needs, and the certificate to trust (NODE_EXTRA_CA_CERTS). */
  host: string
  certificate: string
  received: ReceivedPush[]
  /** A browser's PushSubscription JSON for a new phone named `phone`. */
  subscription(phone: string): { endpoint: string; keys: { p256dh: string; auth: string } }
  /**
   * How the service answers the next pushes to `phone`, in turn: a status, a status after a
   * while, or null for never; 201 at once after those.
   */
  answer(phone: string, answers: Answer[]): void
  close(): Promise<void>
}

function base64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** Checks an ES256 VAPID token against the key beside it; throws when it does not hold. */
function vapidClaims(authorization: string | undefined) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '')
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`)
  const [header, claims, signature] = match[1]!.split('.') as [string, string, string]
  const raw = Buffer.from(match[2]!, 'base64url')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!signed || base64urlJson(header).alg !== 'ES256') throw new Error('the VAPID token is not signed by its key')
  const read = base64urlJson(claims) as { aud: string; exp: number; sub: string }
  return { ...read, publicKey: match[2]! }
}

export async function startPushService(): Promise<PushService> {
  const folder = mkdtempSync(join(tmpdir(), 'push-service-'))
  const keyPath = join(folder, 'key.pem')
  const certificate = join(folder, 'certificate.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certificate,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  )
  const phones = new Map<string, { keys: ECDH; auth: Buffer; answers: Answer[] }>()
  const received: ReceivedPush[] = []
  const server: Server = createServer({ key: readFileSync(keyPath), cert: readFileSync(certificate) }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const phoneName = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? ''
      const phone = phones.get(phoneName)
      if (req.method !== 'POST' || !phone) return void res.writeHead(404).end()
      const message = JSON.parse(
        ece
          .decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: phone.keys,
            authSecret: phone.auth.toString('base64url'),
          })
          .toString('utf8'),
      ) as Record<string, unknown>
      const answer = phone.answers.length > 0 ? phone.answers.shift()! : 201
      const answered = typeof answer === 'object' && answer !== null ? answer.status : answer
      received.push({
        phone: phoneName,
        headers: req.headers,
        message,
        vapid: vapidClaims(req.headers.authorization),
        answered,
        at: Date.now(),
      })
      if (answered === null) return
      setTimeout(() => res.writeHead(answered).end(), typeof answer === 'object' && answer ? answer.afterMs : 0)
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    origin: `https://localhost:${port}`,
    host: `localhost:${port}`,
    certificate,
    received,
    subscription(name) {
      const keys = createECDH('prime256v1')
      keys.generateKeys()
      const auth = randomBytes(16)
      phones.set(name, { keys, auth, answers: [] })
      return {
        endpoint: `https://localhost:${port}/push/${name}`,
        keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      }
    },
    answer(name, answers) {
      phones.get(name)!.answers.push(...answers)
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
