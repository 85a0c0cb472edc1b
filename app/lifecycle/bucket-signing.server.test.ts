import { describe, expect, it } from 'vitest'
import { amzDate, sha256Hex, signatureV4, uriEncode } from './bucket-signing.server'

// AWS's published examples: the Signature Version 4 test suite's get-vanilla, and the S3 guide's
// "Signature calculations for the Authorization header" (GET object, PUT object, list objects).
const suiteKey = {
  accessKeyId: 'AKIDEXAMPLE',
  secret: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 'service',
}
const s3Key = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
}
const emptyHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const host = 'examplebucket.s3.amazonaws.com'

describe('signatureV4, against AWS’s published values', () => {
  it('get-vanilla of the SigV4 test suite', () => {
    const signed = signatureV4(
      {
        method: 'GET',
        path: '/',
        headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' },
        payloadHash: sha256Hex(''),
      },
      suiteKey,
    )
    expect(signed.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31')
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    )
  })

  it('S3’s GET object example (a Range header)', () => {
    const signed = signatureV4(
      {
        method: 'GET',
        path: '/test.txt',
        headers: { host, range: 'bytes=0-9', 'x-amz-content-sha256': emptyHash, 'x-amz-date': '20130524T000000Z' },
        payloadHash: emptyHash,
      },
      s3Key,
    )
    expect(signed.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41')
  })

  it('S3’s PUT object example (a $ in the name, the body’s hash)', () => {
    const payloadHash = sha256Hex('Welcome to Amazon S3.')
    expect(payloadHash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072')
    const signed = signatureV4(
      {
        method: 'PUT',
        path: `/${uriEncode('test$file.text')}`,
        headers: {
          host,
          date: 'Fri, 24 May 2013 00:00:00 GMT',
          'x-amz-date': '20130524T000000Z',
          'x-amz-storage-class': 'REDUCED_REDUNDANCY',
          'x-amz-content-sha256': payloadHash,
        },
        payloadHash,
      },
      s3Key,
    )
    expect(signed.canonicalRequest.split('\n')[1]).toBe('/test%24file.text')
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd')
  })

  it('S3’s list objects example (the query sorted and encoded)', () => {
    const signed = signatureV4(
      {
        method: 'GET',
        path: '/',
        query: [
          ['prefix', 'J'],
          ['max-keys', '2'],
        ],
        headers: { host, 'x-amz-date': '20130524T000000Z', 'x-amz-content-sha256': emptyHash },
        payloadHash: emptyHash,
      },
      s3Key,
    )
    expect(signed.canonicalRequest.split('\n')[2]).toBe('max-keys=2&prefix=J')
    expect(signed.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7')
  })
})

describe('the parts', () => {
  it('encodes every byte but the unreserved ones, a slash only where asked', () => {
    expect(uriEncode('farm backups/é~')).toBe('farm%20backups%2F%C3%A9~')
    expect(uriEncode('farm backups/é~', true)).toBe('farm%20backups/%C3%A9~')
  })

  it('writes x-amz-date in UTC without separators', () => {
    expect(amzDate(new Date('2026-11-24T02:00:05.123Z'))).toBe('20261124T020005Z')
  })
})
