import { request } from 'node:http'

export interface RawRequest {
  method?: string
  path: string
  headers?: Record<string, string>
  /** Chunks are written one by one, so without a Content-Length the body goes chunked. */
  body?: string | string[]
}

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/**
 * Sends exactly the bytes a test asks for (fetch would fix up headers) and
 * resolves with the answer even when the server stops reading an oversized body.
 */
export function rawRequest(
  baseUrl: string,
  { method = 'POST', path, headers = {}, body }: RawRequest,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    // The path goes out exactly as written, `//` and all, on a connection of its own: a kept-alive
    // one the server closed after an earlier answer would fail before this one is sent.
    const req = request({ hostname, port, path, method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      res.on('error', reject)
    })
    req.on('error', (error) => {
      // The server may close the connection after answering; the answer is what counts.
      if (!('code' in error) || (error.code !== 'EPIPE' && error.code !== 'ECONNRESET')) reject(error)
    })
    for (const chunk of Array.isArray(body) ? body : body === undefined ? [] : [body]) req.write(chunk)
    req.end()
  })
}
