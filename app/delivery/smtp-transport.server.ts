import type { SendMailOptions, Transporter } from 'nodemailer'
import type { Dkim } from './dkim.server'

/**
 * The SMTP connection mails go through, opened with the first mail: nodemailer is about 15 MB of
 * the server's memory, loaded only when something is sent. Each mail names the mail server it
 * goes through (the settings its sender read for that round), so a change of settings opens a
 * connection to the new server with the next mail and closes the old one. Each mail is signed
 * (DKIM) for its From domain when given the farm's key. `pool` keeps one
 * connection open between mails (an update's many), else each mail opens its own.
 */
export function createSmtpTransport({ pool = false, dkim }: { pool?: boolean; dkim?: Pick<Dkim, 'optionsFor'> } = {}) {
  let open: { url: string; transport: Promise<Transporter> } | undefined
  const opened = (url: string) => {
    if (open?.url !== url) {
      open?.transport.then((old) => old.close()).catch(() => {})
      open = {
        url,
        transport: import('nodemailer').then(({ default: nodemailer }) =>
          nodemailer.createTransport({
            url,
            ...(pool ? { pool: true, maxConnections: 1 } : {}),
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          }),
        ),
      }
    }
    return open.transport
  }
  return {
    /** Resolves once the server at `url` accepted the mail; rejects with its answer (or what went wrong). */
    send: async (url: string, mail: SendMailOptions) => {
      const from = typeof mail.from === 'string' ? mail.from : Array.isArray(mail.from) ? undefined : mail.from?.address
      const signed = dkim && from ? { ...mail, dkim: dkim.optionsFor(from) } : mail
      await (await opened(url)).sendMail(signed)
    },
    /** Connects and signs in without sending: the server's own words when it cannot. */
    verify: async (url: string) => void (await (await opened(url)).verify()),
    close: () => void open?.transport.then((transport) => transport.close()).catch(() => {}),
  }
}

export type SmtpTransport = ReturnType<typeof createSmtpTransport>
