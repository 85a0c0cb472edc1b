import { createSocket } from 'node:dgram'

export interface DnsServer {
  /** `127.0.0.1:port`, as DNS_SERVERS takes it. */
  address: string
  /** The TXT records it answers, by name; change them while it runs. */
  txt: Map<string, string[]>
  close(): Promise<void>
}

/** The question's name and type, read from a DNS query's first question. */
function question(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = []
  let at = 12
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('latin1'))
    at += query[at]! + 1
  }
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 }
}

/** A TXT record's data: the text in strings of at most 255 bytes, each after its length. */
function txtData(text: string): Buffer {
  const bytes = Buffer.from(text)
  const parts: Buffer[] = []
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const part = bytes.subarray(at, at + 255)
    parts.push(Buffer.from([part.length]), part)
    if (bytes.length === 0) break
  }
  return Buffer.concat(parts)
}

/**
 * A DNS server on loopback (UDP) that answers TXT questions from its map and NXDOMAIN for any
 * other name: the mail set-up's checks ask it, as they would ask the farm's real DNS.
 */
export async function startDnsServer(): Promise<DnsServer> {
  const txt = new Map<string, string[]>()
  const socket = createSocket('udp4')
  socket.on('message', (query, from) => {
    const asked = question(query)
    const records = asked.type === 16 ? (txt.get(asked.name) ?? []) : []
    const known = txt.has(asked.name)
    const header = Buffer.alloc(12)
    query.copy(header, 0, 0, 2)
    // A response, recursion desired and available; NXDOMAIN for a name it does not know.
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(records.length, 6)
    const answers = records.map((text) => {
      const data = txtData(text)
      const fixed = Buffer.alloc(12)
      fixed.writeUInt16BE(0xc00c, 0)
      fixed.writeUInt16BE(16, 2)
      fixed.writeUInt16BE(1, 4)
      fixed.writeUInt32BE(60, 6)
      fixed.writeUInt16BE(data.length, 10)
      return Buffer.concat([fixed, data])
    })
    socket.send(Buffer.concat([header, query.subarray(12, asked.end), ...answers]), from.port, from.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
