import type { SendMailOptions, Transporter } from 'nodemailer'

/**
 * The SMTP connection mails go through (SMTP_URL), opened with the first mail: nodemailer is about
 * 15 MB of the server's memory, loaded only when something is sent. `pool` keeps one connection
 * open between mails (an update's many), else each mail opens its own.
 */
export function createSmtpTransport(smtpUrl: string, { pool = false } = {}) {
  let transport: Promise<Transporter> | undefined
  const opened = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        ...(pool ? { pool: true, maxConnections: 1 } : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    ))
  return {
    /** Resolves once the server accepted the mail; rejects with its answer (or what went wrong). */
    send: async (mail: SendMailOptions) => void (await (await opened()).sendMail(mail)),
    close: () => void transport?.then((open) => open.close()),
  }
}

export type SmtpTransport = ReturnType<typeof createSmtpTransport>
