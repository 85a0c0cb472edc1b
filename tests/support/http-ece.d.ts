declare module 'http_ece' {
  import type { ECDH } from 'node:crypto'
  /** Decrypts one Encrypted Content-Encoding body (RFC 8188) as the receiving browser. */
  export function decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer
  const ece: { decrypt: typeof decrypt }
  export default ece
}
