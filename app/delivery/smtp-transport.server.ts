import type { SendMailOptions, Transporter } from 'nodemailer'
import { signedHeaders, type Dkim } from './dkim.server'
import { overSigning } from './dkim-sign.server'

/** The address a mail is from, as given to nodemailer. */
const addressOf = (from: SendMailOptions['from']) =>
  typeof from === 'string' ? from.replace(/^.*<([^>]+)>.*$/, '$1') : Array.isArray(from) ? undefined : from?.address

/**
 * The SMTP connection mails go through, opened with the first mail: nodemailer is about 15 MB of
 * the server's memory, loaded only when something is sent. Each mail names the mail server it
 * goes through (the settings its sender read for that round), so a change of settings opens a
 * connection to the new server with the next mail and closes the old one. Each mail is signed
 * (DKIM) for its From domain when given the farm's key. `pool` keeps one
 * connection open between mails (an update's many), else each mail opens its own.
 */
export function createSmtpTransport({ pool = false, dkim }: { pool?: boolean; dkim?: Pick<Dkim, 'keyFor'> } = {}) {
  let open: { url: string; transport: Promise<Transporter> } | undefined
  const opened = (url: string) => {
    if (open?.url !== url) {
      open?.transport.then((old) => old.close()).catch(() => {})
      open = {
        url,
        transport: import('nodemailer').then(({ default: nodemailer }) => {
          const transporter = nodemailer.createTransport({
            url,
            ...(pool ? { pool: true, maxConnections: 1 } : {}),
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          })
          // Signed as the last step of building it, over every header it has or must not gain.
          transporter.use('stream', (mail, done) => {
            const from = addressOf(mail.data.from)
            if (dkim && from) mail.message.processFunc(overSigning(dkim.keyFor(from), signedHeaders, () => new Date()))
            done()
          })
          return transporter
        }),
      }
    }
    return open.transport
  }
  return {
    /** Resolves once the server at `url` accepted the mail; rejects with its answer (or what went wrong). */
    send: async (url: string, mail: SendMailOptions) => {
      await (await opened(url)).sendMail(mail)
    },
    /** Connects and signs in without sending: the server's own words when it cannot. */
    verify: async (url: string) => void (await (await opened(url)).verify()),
    close: () => void open?.transport.then((transport) => transport.close()).catch(() => {}),
  }
}

export type SmtpTransport = ReturnType<typeof createSmtpTransport>
