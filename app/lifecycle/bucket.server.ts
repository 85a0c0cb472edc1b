import { bodyUpTo } from '#app/outside'
import { amzDate, sha256Hex, signatureV4, uriEncode } from './bucket-signing.server'

/** Where the backups' copies go: an S3-compatible bucket, addressed path-style (endpoint/bucket/name). */
export interface BucketSettings {
  /** The provider's S3 address, such as https://s3.eu-central-003.backblazeb2.com: an origin, no path. */
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secret: string
}

export interface BucketObject {
  name: string
  bytes: number
}

/** Why the bucket did not do what was asked, in the owner's words; `kind` for what the page and tests tell apart. */
export class BucketError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'refused-key' | 'full' | 'no-bucket' | 'other',
    message: string,
  ) {
    super(message)
  }
}

const emptyHash = sha256Hex('')
/** A small request waits this long; a copy's upload or download as long as it moves, each wait this long at most. */
const smallMs = 30_000
/** A listing's pages, and its whole time: a bucket that pages for ever is one with something wrong. */
const mostPages = 100
const listingMs = 5 * 60_000
/** What is read of an answer: an error's words, a listing's page (1,000 names are about 300 KB). */
const mostErrorBytes = 64 * 1024
const mostPageBytes = 2 * 1024 * 1024

/**
 * A transfer's deadline that moves with it: aborted when `waitMs` pass with no bytes, or when
 * the site stops. `moved` is called with each piece.
 */
function whileItMoves(waitMs: number, stop?: AbortSignal) {
  const idle = new AbortController()
  let timer = setTimeout(() => idle.abort(new DOMException('no bytes in time', 'TimeoutError')), waitMs)
  return {
    signal: stop ? AbortSignal.any([idle.signal, stop]) : idle.signal,
    moved() {
      clearTimeout(timer)
      timer = setTimeout(() => idle.abort(new DOMException('no bytes in time', 'TimeoutError')), waitMs)
    },
    done: () => clearTimeout(timer),
  }
}

async function* passing(source: AsyncIterable<Uint8Array>, moved: () => void): AsyncIterable<Uint8Array> {
  for await (const piece of source) {
    moved()
    yield piece
  }
}

/** The objects of one listing page, found in one pass (a page of unclosed tags costs no more than its length). */
function objectsOn(xml: string): BucketObject[] {
  const found: BucketObject[] = []
  for (let at = xml.indexOf('<Contents>'); at >= 0;) {
    const end = xml.indexOf('</Contents>', at)
    if (end < 0) break
    const entry = xml.slice(at, end)
    const name = /<Key>([^<]*)<\/Key>/.exec(entry)?.[1]
    const size = /<Size>(\d{1,15})<\/Size>/.exec(entry)?.[1]
    if (name) found.push({ name: unescapeXml(name), bytes: Number(size ?? 0) })
    at = xml.indexOf('<Contents>', end)
  }
  return found
}

/** The region to sign with when none is set: the one in a provider's address (s3.REGION.host), R2's 'auto', else us-east-1. */
export function regionOf(endpoint: string): string {
  const host = URL.canParse(endpoint) ? new URL(endpoint).hostname : ''
  if (host.endsWith('.r2.cloudflarestorage.com')) return 'auto'
  const named =
    /^s3[.-]([a-z]{2,}-[a-z0-9-]+?|[a-z]{3})\.(?:amazonaws\.com|backblazeb2\.com|scw\.cloud|wasabisys\.com|io\.cloud\.ovh\.net)$/.exec(
      host,
    )
  return named?.[1] ?? 'us-east-1'
}

/** What a refusal's XML says: <Code> and <Message>. */
function errorOf(xml: string) {
  const tag = (name: string) => new RegExp(`<${name}>([^<]{0,300})</${name}>`).exec(xml)?.[1] ?? ''
  return { code: tag('Code'), message: tag('Message') }
}

/** A refusal in the owner's words: the key, a full bucket, a missing bucket, or what the bucket said. */
function refusal(status: number, body: string, bucket: string): BucketError {
  const { code, message } = errorOf(body)
  if (
    status === 507 ||
    /^(QuotaExceeded|XMinioStorageFull|StorageFull|InsufficientStorage|EntityTooLarge)$/.test(code) ||
    /storage cap|quota|storage (is )?full|insufficient storage/i.test(message)
  ) {
    return new BucketError('full', 'The bucket is full')
  }
  if (status >= 300 && status < 400) {
    return new BucketError('other', 'The bucket’s address sends elsewhere: use the provider’s S3 address for it')
  }
  if (code === 'NoSuchBucket' || (status === 404 && !code)) {
    return new BucketError('no-bucket', `There is no bucket named ${bucket} there: check its name`)
  }
  if (
    status === 401 ||
    status === 403 ||
    /^(InvalidAccessKeyId|SignatureDoesNotMatch|AccessDenied|InvalidToken|AuthorizationHeaderMalformed)$/.test(code)
  ) {
    return new BucketError('refused-key', 'The bucket refused the key: check the key and secret')
  }
  const said = [code, message]
    .filter(Boolean)
    .join(': ')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
  return new BucketError('other', `The bucket answered ${status}${said ? ` (${said})` : ''}`)
}

/** The words for a request that got no answer: the address only, never the key. */
function unanswered(endpoint: string, error: unknown): BucketError {
  const cause = (error as { cause?: { code?: string } }).cause?.code
  const timedOut = (error as Error).name === 'TimeoutError'
  const how = timedOut ? ' in time' : cause ? ` (${cause})` : ''
  return new BucketError('unreachable', `Nothing answered at ${new URL(endpoint).host}${how}`)
}

/** The bucket's five requests, each signed (Signature Version 4); `stop` ends any under way (the site stops). */
export function openBucket(settings: BucketSettings, now: () => number = Date.now, stop?: AbortSignal) {
  const origin = new URL(settings.endpoint).origin
  const key = { accessKeyId: settings.accessKeyId, secret: settings.secret, region: settings.region }

  async function send(
    method: string,
    name: string,
    {
      query = [],
      body,
      bytes,
      payloadHash = emptyHash,
      signal = stop ? AbortSignal.any([AbortSignal.timeout(smallMs), stop]) : AbortSignal.timeout(smallMs),
    }: {
      query?: Array<[string, string]>
      body?: AsyncIterable<Uint8Array> | Uint8Array
      bytes?: number
      payloadHash?: string
      signal?: AbortSignal
    } = {},
  ): Promise<Response> {
    const path = `/${uriEncode(settings.bucket)}${name ? `/${uriEncode(name, true)}` : ''}`
    const headers: Record<string, string> = {
      host: new URL(origin).host,
      'x-amz-date': amzDate(new Date(now())),
      'x-amz-content-sha256': payloadHash,
    }
    const { authorization } = signatureV4({ method, path, query, headers, payloadHash }, key)
    const search = query.map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&')
    let answer: Response
    try {
      answer = await fetch(`${origin}${path}${search ? `?${search}` : ''}`, {
        method,
        headers: {
          ...headers,
          authorization,
          ...(bytes !== undefined ? { 'content-length': String(bytes) } : {}),
        },
        body: body as BodyInit | undefined,
        // A redirect is told, never followed: the signature and the key are for this address only.
        redirect: 'manual',
        signal,
        ...(body && !(body instanceof Uint8Array) ? { duplex: 'half' } : {}),
      } as RequestInit)
    } catch (error) {
      throw unanswered(origin, error)
    }
    if (answer.ok) return answer
    const said = await bodyUpTo(answer, mostErrorBytes).catch(() => '')
    throw refusal(answer.status, said ?? '', settings.bucket)
  }

  /** An answer whose body says nothing the site needs: read to its end, or let go past a little. */
  const drained = async (answer: Response) => void (await bodyUpTo(answer, mostErrorBytes))

  return {
    /** Writes an object; a stream is sent as it is read, of the length given, for as long as it moves. */
    async put(name: string, body: AsyncIterable<Uint8Array> | Uint8Array, bytes: number) {
      if (body instanceof Uint8Array)
        return drained(await send('PUT', name, { body, bytes, payloadHash: sha256Hex(body) }))
      const moving = whileItMoves(smallMs, stop)
      try {
        const sent = passing(body, moving.moved)
        await drained(
          await send('PUT', name, { body: sent, bytes, payloadHash: 'UNSIGNED-PAYLOAD', signal: moving.signal }),
        )
      } finally {
        moving.done()
      }
    },

    /** An object's bytes, as they come, for as long as they move. */
    async get(name: string): Promise<AsyncIterable<Uint8Array>> {
      const moving = whileItMoves(smallMs, stop)
      const answer = await send('GET', name, { signal: moving.signal }).catch((error: unknown) => {
        moving.done()
        throw error
      })
      if (!answer.body) {
        moving.done()
        throw new BucketError('other', 'The bucket answered without a body')
      }
      return (async function* () {
        try {
          yield* passing(answer.body as unknown as AsyncIterable<Uint8Array>, moving.moved)
        } finally {
          moving.done()
        }
      })()
    },

    /** Every object whose name starts with `prefix` (ListObjectsV2, page by page). */
    async list(prefix: string): Promise<BucketObject[]> {
      const found: BucketObject[] = []
      const tokens = new Set<string>()
      const endsAt = now() + listingMs
      let token: string | null = null
      do {
        if (tokens.size >= mostPages || now() > endsAt) {
          throw new BucketError('other', 'The bucket’s listing did not end: check its address')
        }
        const query: Array<[string, string]> = [
          ['list-type', '2'],
          ['prefix', prefix],
          ...(token ? [['continuation-token', token] as [string, string]] : []),
        ]
        const xml = await bodyUpTo(await send('GET', '', { query }), mostPageBytes)
        if (xml === null)
          throw new BucketError('other', 'The bucket’s listing was longer than any bucket’s: check its address')
        found.push(...objectsOn(xml))
        const next: string | null = xml.includes('<IsTruncated>true</IsTruncated>')
          ? (/<NextContinuationToken>([^<]{1,1024})<\/NextContinuationToken>/.exec(xml)?.[1] ?? null)
          : null
        token = next === null ? null : unescapeXml(next)
        if (token !== null && tokens.has(token))
          throw new BucketError('other', 'The bucket’s listing did not end: check its address')
        if (token !== null) tokens.add(token)
      } while (token)
      return found
    },

    async remove(name: string) {
      await drained(await send('DELETE', name))
    },
  }
}

export type Bucket = ReturnType<typeof openBucket>

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
