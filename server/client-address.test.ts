import type { IncomingMessage } from 'node:http'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { clientAddress, type TrustProxy } from './client-address'

function upgrade(peer: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage
}

function trusting(setting: boolean | number | string): TrustProxy {
  const app = express()
  app.set('trust proxy', setting)
  return app.get('trust proxy fn')
}

describe('clientAddress', () => {
  it('is the socket peer unless a proxy is trusted', () => {
    expect(clientAddress(upgrade('198.51.100.1', '203.0.113.9'), trusting(false))).toBe('198.51.100.1')
  })

  it('takes as many forwarded hops as TRUST_PROXY trusts, like Express', () => {
    expect(clientAddress(upgrade('10.0.0.1', '203.0.113.9, 192.0.2.4'), trusting(1))).toBe('192.0.2.4')
    expect(clientAddress(upgrade('10.0.0.1', '203.0.113.9, 192.0.2.4'), trusting(2))).toBe('203.0.113.9')
    expect(clientAddress(upgrade('10.0.0.1', '203.0.113.9'), trusting(5))).toBe('203.0.113.9')
    expect(clientAddress(upgrade('10.0.0.1'), trusting(1))).toBe('10.0.0.1')
    expect(clientAddress(upgrade('10.0.0.1', '203.0.113.9'), trusting('loopback'))).toBe('10.0.0.1')
  })
})
