import { createHash, createSign } from 'node:crypto'
import { PassThrough, type Readable } from 'node:stream'

export type DkimKey = { domainName: string; keySelector: string; privateKey: string }

type HeaderField = { name: string; line: string }

/** A header's fields in order, each with its folded lines kept whole. */
function headerFields(head: string): HeaderField[] {
  const fields: HeaderField[] = []
  for (const line of head.split('\r\n')) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields.at(-1)!.line += `\r\n${line}`
    else if (line) fields.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line })
  }
  return fields
}

/** Relaxed header canonicalization (RFC 6376 §3.4.2). */
const relaxedField = (name: string, line: string) =>
  `${name}:${line
    .slice(line.indexOf(':') + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`

/** Relaxed body canonicalization (RFC 6376 §3.4.4). */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
  while (lines.length > 0 && lines.at(-1) === '') lines.pop()
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`
}

/**
 * The mail signed (rsa-sha256, relaxed/relaxed), each of `names` listed once more than it appears
 * (RFC 6376 §5.4.2): a header the mail lacks is signed as absent, and one added on the way (a
 * List-Unsubscribe a relay slips into an acknowledgement) breaks the signature.
 */
export function overSigned(raw: Buffer, key: DkimKey, names: string[], now: Date): Buffer {
  // What nodemailer builds may end its lines in LF alone; the mail server gets CRLF, so that is signed.
  const text = raw.toString('binary').replace(/\r?\n/g, '\r\n')
  const split = text.indexOf('\r\n\r\n')
  const head = split === -1 ? text : text.slice(0, split)
  const body = split === -1 ? '' : text.slice(split + 4)
  const fields = headerFields(head)
  const listed: string[] = []
  const signed: string[] = []
  for (const name of names.map((each) => each.toLowerCase())) {
    // From the bottom up, as a verifier picks them; then the one more that must stay absent.
    const present = fields.filter((field) => field.name === name).reverse()
    for (const field of present) signed.push(relaxedField(name, field.line))
    listed.push(...Array<string>(present.length + 1).fill(name))
  }
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'binary').digest('base64')
  // One tag a line: a fold only ever between tags, or inside the signature (where FWS is allowed).
  const unsigned = [
    'v=1',
    'a=rsa-sha256',
    'c=relaxed/relaxed',
    `d=${key.domainName}`,
    `s=${key.keySelector}`,
    `t=${Math.floor(now.getTime() / 1000)}`,
    `h=${listed.join(':')}`,
    `bh=${bodyHash}`,
    'b=',
  ].join(';\r\n ')
  const signer = createSign('RSA-SHA256')
  signer.update([...signed, relaxedField('dkim-signature', `DKIM-Signature: ${unsigned}`)].join('\r\n'), 'binary')
  const signature = signer
    .sign(key.privateKey, 'base64')
    .match(/.{1,72}/g)!
    .join('\r\n ')
  const folded = `DKIM-Signature: ${unsigned}${signature}`
  return Buffer.from(`${folded}\r\n${text}`, 'binary')
}

/** A stream step for nodemailer's message: the whole mail read, then given on signed. */
export function overSigning(key: DkimKey, names: string[], now: () => Date) {
  return (input: Readable): Readable => {
    const output = new PassThrough()
    const chunks: Buffer[] = []
    input.on('data', (chunk: Buffer) => chunks.push(chunk))
    input.on('error', (error) => output.destroy(error))
    input.on('end', () => {
      try {
        output.end(overSigned(Buffer.concat(chunks), key, names, now()))
      } catch (error) {
        output.destroy(error instanceof Error ? error : new Error(String(error)))
      }
    })
    return output
  }
}
