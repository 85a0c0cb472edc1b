import { createHash, createHmac } from 'node:crypto'

/**
 * AWS Signature Version 4, as every S3-compatible store checks it (Backblaze B2, Scaleway, OVH,
 * Wasabi, Cloudflare R2, AWS): by hand with node:crypto, because the AWS SDK would more than
 * double the site's idle memory for five requests (decision 036).
 */
export interface SigningKey {
  accessKeyId: string
  secret: string
  region: string
  service?: string
}

export interface RequestToSign {
  method: string
  /** The path as sent, each segment already percent-encoded as S3 expects. */
  path: string
  query?: Array<[string, string]>
  /** Every header to sign, `host` and `x-amz-date` among them; names in any case. */
  headers: Record<string, string>
  /** The body's SHA-256 in hex, or UNSIGNED-PAYLOAD. */
  payloadHash: string
}

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986's unreserved characters stay; every other byte is %XX, upper case, as SigV4 wants. */
export function uriEncode(text: string, keepSlash = false): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte)
      if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) return char
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
    })
    .join('')
}

/** The x-amz-date of a moment: 20130524T000000Z. */
export const amzDate = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** The Authorization header of a request, and the steps that made it (the tests compare them with AWS's). */
export function signatureV4(request: RequestToSign, key: SigningKey) {
  const service = key.service ?? 's3'
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const date = headers.find(([name]) => name === 'x-amz-date')?.[1]
  if (!date) throw new Error('a request is signed with its x-amz-date')
  // Sorted by encoded name, then value: sorting the joined pairs would put `a-b=` before `a=`.
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const query = (request.query ?? [])
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) => byCode(nameA, nameB) || byCode(valueA, valueB))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  const signedHeaders = headers.map(([name]) => name).join(';')
  const canonicalRequest = [
    request.method,
    request.path,
    query,
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    request.payloadHash,
  ].join('\n')
  const scope = `${date.slice(0, 8)}/${key.region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = [date.slice(0, 8), key.region, service, 'aws4_request'].reduce<Buffer | string>(
    (derived, part) => hmac(derived, part),
    `AWS4${key.secret}`,
  )
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex')
  return {
    canonicalRequest,
    stringToSign,
    signature,
    authorization: `AWS4-HMAC-SHA256 Credential=${key.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  }
}
