import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { freePort } from './server'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  answered: number | null
}

const receivers: Server[] = []

/** Closes every receiver started since: a test file's afterEach, registered before its sites' (which stop first). */
export async function closeReceivers() {
  for (const receiver of receivers.splice(0)) {
    receiver.closeAllConnections()
    await new Promise((resolve) => receiver.close(resolve))
  }
}

/** A loopback endpoint that records every POST and answers each with what `answer` says (null: never). */
export async function receiver(answer: (n: number) => number | null = () => 204) {
  const received: Received[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const status = answer(received.length + 1)
      received.push({ headers: req.headers, body, answered: status })
      if (status !== null) res.writeHead(status).end()
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  receivers.push(server)
  return { url: `http://127.0.0.1:${port}/hooks/leads`, received }
}
