import { mkdtempSync } from 'node:fs'
import { createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { signatureV4 } from '#app/lifecycle/bucket-signing.server'
import { openBucket } from '#app/lifecycle/bucket.server'

/** s3rver's own key: any other is refused (InvalidAccessKeyId), as a provider does. */
export const bucketKey = { accessKeyId: 'S3RVER', secret: 'S3RVER' }

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`

/**
 * s3rver checks the access key's id but not a V4 signature: the proxy checks it as a provider does,
 * with the secret, so a wrong secret is refused (SignatureDoesNotMatch). The signer it uses is the
 * site's own, held to AWS's published values by its unit test.
 */
function signatureHolds(incoming: IncomingMessage): boolean {
  const said =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      incoming.headers.authorization ?? '',
    )
  if (!said) return false
  const [, accessKeyId, region, signed, signature] = said as unknown as [string, string, string, string, string]
  const url = new URL(incoming.url ?? '/', 'http://bucket')
  const headers = Object.fromEntries(signed.split(';').map((name) => [name, String(incoming.headers[name] ?? '')]))
  const check = signatureV4(
    {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: [...url.searchParams],
      headers,
      payloadHash: String(incoming.headers['x-amz-content-sha256'] ?? ''),
    },
    { accessKeyId, secret: bucketKey.secret, region },
  )
  return check.signature === signature
}

const quotaExceeded = s3Error('QuotaExceeded', 'Bucket quota exceeded')

/**
 * A real S3-compatible server (s3rver) on a free loopback port, with a bucket `farm`, behind a
 * small proxy that can answer every upload as a full bucket does (403 QuotaExceeded, as Ceph,
 * Wasabi and OVH answer), or stop answering at all.
 */
export async function startBucketServer() {
  const directory = mkdtempSync(join(tmpdir(), 'farm-bucket-'))
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'farm' }],
  })
  const { port: s3Port } = await s3.run()
  let full = false
  const puts: string[] = []
  const proxy = createServer((incoming, answer) => {
    if (incoming.method === 'PUT') puts.push(incoming.url ?? '')
    if (incoming.headers.authorization?.includes(`Credential=${bucketKey.accessKeyId}/`) && !signatureHolds(incoming)) {
      incoming.resume()
      answer
        .writeHead(403, { 'Content-Type': 'application/xml' })
        .end(
          s3Error(
            'SignatureDoesNotMatch',
            'The request signature we calculated does not match the signature you provided.',
          ),
        )
      return
    }
    if (full && incoming.method === 'PUT') {
      incoming.resume()
      answer.writeHead(403, { 'Content-Type': 'application/xml' }).end(quotaExceeded)
      return
    }
    const onward = request(
      { host: '127.0.0.1', port: s3Port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (back) => {
        answer.writeHead(back.statusCode ?? 502, back.headers)
        back.pipe(answer)
      },
    )
    onward.once('error', () => answer.destroy())
    incoming.pipe(onward)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  return {
    endpoint,
    bucket: 'farm',
    directory,
    /** The settings' environment variables that point the site at this bucket. */
    env: (key = bucketKey) => ({
      BACKUP_BUCKET_ENDPOINT: endpoint,
      BACKUP_BUCKET: 'farm',
      BACKUP_BUCKET_ACCESS_KEY: key.accessKeyId,
      BACKUP_BUCKET_SECRET: key.secret,
    }),
    /** The bucket `farm` as the site reaches it, for a test to look in or change. */
    open: () => openBucket({ endpoint, bucket: 'farm', region: 'us-east-1', ...bucketKey }),
    /** From now on every upload is refused as a full bucket's. */
    setFull(isFull: boolean) {
      full = isFull
    },
    /** The uploads asked for so far, full or not. */
    puts,
    async close() {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
      await s3.close()
    },
  }
}

export type BucketServer = Awaited<ReturnType<typeof startBucketServer>>
