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
/** A small request waits this long; a copy's upload or download as long as it moves. */
const smallMs = 30_000
const bigMs = 60 * 60_000

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

/** The bucket's five requests, each signed (Signature Version 4). */
export function openBucket(settings: BucketSettings, now: () => number = Date.now) {
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
      timeoutMs = smallMs,
    }: {
      query?: Array<[string, string]>
      body?: AsyncIterable<Uint8Array> | Uint8Array
      bytes?: number
      payloadHash?: string
      timeoutMs?: number
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
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
        ...(body && !(body instanceof Uint8Array) ? { duplex: 'half' } : {}),
      } as RequestInit)
    } catch (error) {
      throw unanswered(origin, error)
    }
    if (answer.ok) return answer
    throw refusal(answer.status, await answer.text().catch(() => ''), settings.bucket)
  }

  return {
    /** Writes an object; a stream is sent as it is read, of the length given. */
    async put(name: string, body: AsyncIterable<Uint8Array> | Uint8Array, bytes: number) {
      const payloadHash = body instanceof Uint8Array ? sha256Hex(body) : 'UNSIGNED-PAYLOAD'
      await (await send('PUT', name, { body, bytes, payloadHash, timeoutMs: bigMs })).arrayBuffer()
    },

    /** An object's bytes, as they come. */
    async get(name: string): Promise<AsyncIterable<Uint8Array>> {
      const answer = await send('GET', name, { timeoutMs: bigMs })
      if (!answer.body) throw new BucketError('other', 'The bucket answered without a body')
      return answer.body as unknown as AsyncIterable<Uint8Array>
    },

    /** Every object whose name starts with `prefix` (ListObjectsV2, page by page). */
    async list(prefix: string): Promise<BucketObject[]> {
      const found: BucketObject[] = []
      let token: string | null = null
      do {
        const query: Array<[string, string]> = [
          ['list-type', '2'],
          ['prefix', prefix],
          ...(token ? [['continuation-token', token] as [string, string]] : []),
        ]
        const xml = await (await send('GET', '', { query })).text()
        for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const name = /<Key>([^<]*)<\/Key>/.exec(entry!)?.[1]
          const size = /<Size>(\d+)<\/Size>/.exec(entry!)?.[1]
          if (name) found.push({ name: unescapeXml(name), bytes: Number(size ?? 0) })
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? (/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? null)
          : null
        if (token) token = unescapeXml(token)
      } while (token)
      return found
    },

    async remove(name: string) {
      await (await send('DELETE', name)).arrayBuffer()
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
