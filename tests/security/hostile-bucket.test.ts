// A bucket's address is the owner's to type, and what answers there is stranger input: a listing
// of unclosed tags (quadratic for a pattern: 16 s of the site's thread at 800 KB before), a
// listing or an error that never ends (884 MB in 6 s before), pages that never end (the copier
// stuck and /healthz saying ok before), an upload never answered (shutdown waited, exit 1
// before), a redirect (told as 'nothing answered' before). Each is bounded and said in words.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createBucketCopies } from '#app/lifecycle/bucket-copies.server'
import { signatureV4 } from '#app/lifecycle/bucket-signing.server'
import { BucketError, openBucket } from '#app/lifecycle/bucket.server'
import { newSealKey } from '#app/lifecycle/sealed-copy.server'
import { quietLog } from '#tests/support/quiet-log'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function hostile(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer(answer)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { endpoint: `http://127.0.0.1:${port}`, bucket: 'farm', region: 'us-east-1', accessKeyId: 'k', secret: 's' }
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof BucketError ? error.message : `not a BucketError: ${String(error)}`),
  )

/** Sends `piece` for ever, as fast as the client reads. */
function endless(response: ServerResponse, piece: string) {
  const write = () => {
    while (response.write(piece));
  }
  response.on('drain', write)
  response.on('close', () => response.off('drain', write))
  write()
}

describe('a hostile bucket', () => {
  it('lists a page of unclosed tags in one pass, and refuses a listing longer than any bucket’s', async () => {
    const unclosed = '<Contents><Key>farm-backups/x</Key>'.repeat(Math.floor((2 * 1024 * 1024 - 200) / 36))
    const pages = [`<ListBucketResult>${unclosed}</ListBucketResult>`, `<ListBucketResult>${unclosed}${unclosed}`]
    const settings = await hostile((_request, response) => response.end(pages.shift()))
    expect(await openBucket(settings).list('farm-backups/')).toEqual([])
    expect(await refusalOf(openBucket(settings).list('farm-backups/'))).toBe(
      'The bucket’s listing was longer than any bucket’s: check its address',
    )
  })

  it('reads no more than a little of an error that never ends', async () => {
    const settings = await hostile((_request, response) => {
      response.writeHead(500)
      endless(response, '<Error><Code>'.padEnd(64 * 1024, 'x'))
    })
    expect(await refusalOf(openBucket(settings).remove('farm-backups/x'))).toMatch(/^The bucket answered 500/)
  })

  it('stops a listing whose pages never end, or come round again, and says so', async () => {
    let pages = 0
    const truncated = (token: string) =>
      `<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>${token}</NextContinuationToken></ListBucketResult>`
    const forEver = await hostile((_request, response) => response.end(truncated(`page-${++pages}`)))
    expect(await refusalOf(openBucket(forEver).list('farm-backups/'))).toBe(
      'The bucket’s listing did not end: check its address',
    )
    expect(pages).toBeLessThanOrEqual(101)
    const roundAgain = await hostile((_request, response) => response.end(truncated('same')))
    expect(await refusalOf(openBucket(roundAgain).list('farm-backups/'))).toBe(
      'The bucket’s listing did not end: check its address',
    )
  })

  it('tells a redirect, never following it with the key', async () => {
    let followed = false
    const elsewhere = await hostile((_request, response) => {
      followed = true
      response.end()
    })
    const settings = await hostile((_request, response) => {
      response.writeHead(301, { Location: `${elsewhere.endpoint}/farm` })
      response.end()
    })
    expect(await refusalOf(openBucket(settings).list('farm-backups/'))).toBe(
      'The bucket’s address sends elsewhere: use the provider’s S3 address for it',
    )
    expect(followed).toBe(false)
  })

  it('lets the site stop during an upload the bucket never answers', async () => {
    let uploading: () => void = () => {}
    const started = new Promise<void>((resolve) => (uploading = resolve))
    const settings = await hostile((request, response) => {
      if (request.method === 'PUT') return void (request.resume(), uploading())
      response.end('<ListBucketResult></ListBucketResult>')
    })
    const dir = mkdtempSync(join(tmpdir(), 'farm-hostile-'))
    writeFileSync(join(dir, 'farm-20261128-020000.db'), 'SQLite format 3\0'.padEnd(4096, '\0'))
    const key = newSealKey()
    const copies = createBucketCopies({
      dir,
      keep: () => 7,
      bucket: () => settings,
      sealKey: () => key,
      retryBaseMs: 60_000,
      log: quietLog,
    })
    const copying = copies.copyNow()
    await started
    // The test's own timeout is what a shutdown waiting on the bucket would meet.
    await copies.stop()
    await copying
  })
})

it('signs a query sorted by name, then value: `a=1` before `a-b=2`', () => {
  const { canonicalRequest } = signatureV4(
    {
      method: 'GET',
      path: '/',
      query: [
        ['a-b', '2'],
        ['a', '1'],
      ],
      headers: { host: 'x', 'x-amz-date': '20261128T000000Z' },
      payloadHash: 'UNSIGNED-PAYLOAD',
    },
    { accessKeyId: 'k', secret: 's', region: 'us-east-1' },
  )
  expect(canonicalRequest.split('\n')[2]).toBe('a=1&a-b=2')
})
