import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { freePort } from './server'

export interface MailServer {
  port: number
  url: string
  /** Every mail accepted so far, parsed, with the bytes it came as (refused ones are not kept). */
  mails: Array<ParsedMail & { raw: Buffer }>
  close(): Promise<void>
}

/**
 * A real SMTP server on loopback (smtp-server), reading each accepted mail with mailparser.
 * It offers no STARTTLS (it has no certificate a client would trust); with `login` it asks
 * for those credentials.
 */
export async function startMailServer({
  port,
  login,
  refuse,
  refuseRecipient,
  deferRecipient,
  holdUntil,
  hold,
}: {
  port?: number
  login?: { user: string; password: string }
  /** Refuses (554, after the message was sent) each mail this says yes to, as a content filter would. */
  refuse?: (mail: ParsedMail) => boolean
  /** Refuses (550 at RCPT TO, as for an unknown mailbox) each recipient this says yes to. */
  refuseRecipient?: (address: string) => boolean
  /** Defers (450 at RCPT TO, as Postfix does for a full mailbox, naming it) each recipient this says yes to. */
  deferRecipient?: (address: string) => boolean
  /** Takes each mail only once this settles, so a test sees what happens while one is on its way. */
  holdUntil?: Promise<void>
  /** Holds one mail until the promise this gives for it settles (a mail not yet answered is not taken). */
  hold?: (mail: ParsedMail) => Promise<void> | null
} = {}): Promise<MailServer> {
  port ??= await freePort()
  const mails: Array<ParsedMail & { raw: Buffer }> = []
  const server = new SMTPServer({
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !login,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password)
        return callback(null, { user: login.user })
      callback(new Error('Invalid username or password'))
    },
    onRcptTo(address, _session, callback) {
      if (refuseRecipient?.(address.address)) {
        return callback(
          Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: no such mailbox`), {
            responseCode: 550,
          }),
        )
      }
      if (deferRecipient?.(address.address)) {
        return callback(
          Object.assign(new Error(`4.2.2 <${address.address}>: Recipient address rejected: mailbox full`), {
            responseCode: 450,
          }),
        )
      }
      callback()
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        simpleParser(raw)
          .then(async (mail) => {
            await (hold?.(mail) ?? holdUntil)
            if (refuse?.(mail)) {
              return callback(Object.assign(new Error('Message refused by content filter'), { responseCode: 554 }))
            }
            mails.push(Object.assign(mail, { raw }))
            callback()
          })
          .catch(callback)
      })
    },
  })
  // A site the test kills (SIGKILL) mid-session resets its connection: a client gone, not a failure.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const credentials = login ? `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@` : ''
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
