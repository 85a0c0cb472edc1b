import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ImapFlow } from 'imapflow'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { startMailServer, type MailServer } from './mail-server'
import { freePort } from './server'

/**
 * The farm's real mail, on loopback, from Debian's packages: Postfix relays what the site sends
 * (to `remote.test`, the visitors' world: a loopback SMTP server that takes or refuses each
 * address) and delivers what comes to `farm.test` through LMTP into Dovecot, which serves it
 * over IMAP with TLS (a certificate made here, trusted by the site through NODE_EXTRA_CA_CERTS).
 * A refused address makes Postfix write a real bounce to the farm's address.
 */

/** Whether a process still runs: it is there, and not a zombie waiting to be reaped. */
function isRunning(pid: number) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** Waits until a process has exited, for at most `withinMs`. */
async function gone(pid: number, withinMs: number) {
  const deadline = Date.now() + withinMs
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

export interface MailStack {
  /** The site's SMTP_URL (Postfix) and INBOUND_IMAP_URL (Dovecot, imaps; or imap on its own port, STARTTLS required). */
  smtpUrl: string
  imapUrl: string
  imapStarttlsUrl: string
  /**
   * The stack as a mail provider offers it (TEST_MAIL_PROVIDER): Postfix's submission port, which
   * asks for STARTTLS and then the farm's user name and password (checked by Dovecot), and
   * Dovecot's IMAP with TLS; with the farm's login.
   */
  provider: string
  login: { user: string; password: string }
  /** The farm's address: where its mail comes from and where answers and bounces arrive. */
  farmAddress: string
  certificate: string
  /** What the visitors' world took, parsed. */
  remote: MailServer
  /** Sends a mail through Postfix, as a visitor's mail program would. */
  send(mail: SendMailOptions): Promise<void>
  /** Puts a mail as it is straight into the farm's mailbox (IMAP APPEND), e.g. a report from elsewhere. */
  append(raw: string | Buffer): Promise<void>
  /** Every message of a folder with its stored flags (not \Recent, which only says a session saw it first), by UID. */
  messages(folder?: string): Promise<Array<{ uid: number; flags: string[]; subject: string }>>
  stop(): Promise<void>
}

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe' }).toString()
// A daemon keeps what it was started with open: its output would hold the test's pipe for good.
const startDaemon = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'ignore' })

export async function startMailStack({
  refuseRecipient = () => false,
  idle = true,
}: {
  refuseRecipient?: (address: string) => boolean
  /** False: Dovecot does not offer IDLE, as some mail hosts do not, so the site must look by itself. */
  idle?: boolean
} = {}): Promise<MailStack> {
  const folder = mkdtempSync(join(tmpdir(), 'farm-mail-'))
  // Postfix's and Dovecot's own users read their parts of it.
  chmodSync(folder, 0o755)
  const [smtpPort, imapsPort, lmtpPort, imapPort, submissionPort, authPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ]
  const remote = await startMailServer({ refuseRecipient })
  const password = 'farm-mailbox-password'
  const user = 'farm@farm.test'

  const certificate = join(folder, 'certificate.pem')
  const key = join(folder, 'key.pem')
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    certificate,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ])

  const dovecot = join(folder, 'dovecot')
  for (const part of ['run', 'state', 'mail']) mkdirSync(join(dovecot, part), { recursive: true })
  const dovecotIds = run('id', ['-u', 'dovecot']).trim()
  const dovecotGroup = run('id', ['-g', 'dovecot']).trim()
  chownSync(join(dovecot, 'mail'), Number(dovecotIds), Number(dovecotGroup))
  writeFileSync(join(dovecot, 'users'), `${user}:{PLAIN}${password}\n`)
  const dovecotConf = join(dovecot, 'dovecot.conf')
  writeFileSync(
    dovecotConf,
    `base_dir = ${dovecot}/run
state_dir = ${dovecot}/state
instance_name = farm-test-${imapsPort}
protocols = imap lmtp
listen = 127.0.0.1
ssl = required
ssl_cert = <${certificate}
ssl_key = <${key}
log_path = ${dovecot}/dovecot.log
auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dovecot}/users
}
userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=${dovecot}/mail/%u allow_all_users=yes
}
mail_location = maildir:~/Maildir
first_valid_uid = 1
${idle ? '' : 'imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ NAMESPACE UIDPLUS MOVE CHILDREN UNSELECT'}
service imap-login {
  chroot =
  inet_listener imap {
    port = ${imapPort}
  }
  inet_listener imaps {
    port = ${imapsPort}
  }
}
service anvil {
  chroot =
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = ${authPort}
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${lmtpPort}
  }
}
`,
  )
  startDaemon('/usr/sbin/dovecot', ['-c', dovecotConf])

  const postfix = join(folder, 'postfix')
  for (const part of ['conf', 'queue', 'data']) mkdirSync(join(postfix, part), { recursive: true })
  chownSync(join(postfix, 'data'), Number(run('id', ['-u', 'postfix']).trim()), 0)
  writeFileSync(
    join(postfix, 'conf', 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${postfix}/queue
data_directory = ${postfix}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = relay.farm.test
mydomain = farm.test
myorigin = farm.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains = farm.test remote.test
smtpd_relay_restrictions = permit_mynetworks, reject
transport_maps = inline:{ farm.test=lmtp:inet:127.0.0.1:${lmtpPort}, remote.test=smtp:[127.0.0.1]:${remote.port} }
smtp_dns_support_level = disabled
smtp_host_lookup = native
smtp_tls_security_level = none
maillog_file_prefixes = ${folder}
maillog_file = ${postfix}/maillog
alias_maps =
alias_database =
local_recipient_maps =
syslog_name = postfix-farm-test
`,
  )
  // The services this relay uses, none chrooted (its folders are the test's own).
  writeFileSync(
    join(postfix, 'conf', 'master.cf'),
    [
      `127.0.0.1:${smtpPort} inet n - n - - smtpd`,
      // Submission, as a provider's: STARTTLS first, then the mailbox's own login, checked by Dovecot.
      [
        `127.0.0.1:${submissionPort} inet n - n - - smtpd`,
        '-o smtpd_tls_security_level=encrypt',
        `-o smtpd_tls_cert_file=${certificate}`,
        `-o smtpd_tls_key_file=${key}`,
        '-o smtpd_sasl_auth_enable=yes',
        '-o smtpd_sasl_type=dovecot',
        `-o smtpd_sasl_path=inet:127.0.0.1:${authPort}`,
        '-o smtpd_client_restrictions=permit_sasl_authenticated,reject',
        '-o smtpd_relay_restrictions=permit_sasl_authenticated,reject',
      ].join(' '),
      'pickup unix n - n 60 1 pickup',
      'cleanup unix n - n - 0 cleanup',
      'qmgr unix n - n 300 1 qmgr',
      'tlsmgr unix - - n 1000? 1 tlsmgr',
      'rewrite unix - - n - - trivial-rewrite',
      'bounce unix - - n - 0 bounce',
      'defer unix - - n - 0 bounce',
      'trace unix - - n - 0 bounce',
      'verify unix - - n - 1 verify',
      'flush unix n - n 1000? 0 flush',
      'proxymap unix - - n - - proxymap',
      'smtp unix - - n - - smtp',
      'relay unix - - n - - smtp',
      'showq unix n - n - - showq',
      'error unix - - n - - error',
      'retry unix - - n - - error',
      'discard unix - - n - - discard',
      'lmtp unix - - n - - lmtp',
      'anvil unix - - n - 1 anvil',
      'scache unix - - n - 1 scache',
      'postlog unix-dgram n - n - 1 postlogd',
      '',
    ].join('\n'),
  )
  startDaemon('/usr/sbin/postfix', ['-c', join(postfix, 'conf'), 'start'])

  const relay = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
  const imap = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: imapsPort,
      secure: true,
      auth: { user, pass: password },
      logger: false,
      tls: { ca: readFileSync(certificate), servername: 'localhost' },
    })
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.logout()
    }
  }

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    imapUrl: `imaps://${encodeURIComponent(user)}:${password}@localhost:${imapsPort}/INBOX`,
    imapStarttlsUrl: `imap://${encodeURIComponent(user)}:${password}@localhost:${imapPort}/INBOX`,
    provider: `smtp://127.0.0.1:${submissionPort}?requireTLS=true imaps://localhost:${imapsPort}/INBOX`,
    login: { user, password },
    farmAddress: user,
    certificate,
    remote,
    async send(mail) {
      await relay.sendMail(mail)
    },
    async append(raw) {
      await imap((client) => client.append('INBOX', raw))
    },
    async messages(path = 'INBOX') {
      return imap(async (client) => {
        const lock = await client.getMailboxLock(path)
        try {
          const found: Array<{ uid: number; flags: string[]; subject: string }> = []
          if (client.mailbox && client.mailbox.exists === 0) return found
          for await (const message of client.fetch('1:*', { uid: true, flags: true, envelope: true })) {
            found.push({
              uid: message.uid,
              flags: [...(message.flags ?? [])].filter((flag) => flag !== '\\Recent').sort(),
              subject: message.envelope?.subject ?? '',
            })
          }
          return found
        } finally {
          lock.release()
        }
      })
    },
    async stop() {
      relay.close()
      try {
        startDaemon('/usr/sbin/postfix', ['-c', join(postfix, 'conf'), 'stop'])
      } catch {
        // Already stopped.
      }
      let dovecotPid = 0
      try {
        dovecotPid = Number(readFileSync(join(dovecot, 'run', 'master.pid'), 'utf8').trim())
        process.kill(dovecotPid)
      } catch {
        // Already stopped.
      }
      await remote.close()
      // Dovecot writes its state as it exits: its folder is removed once it has gone.
      if (dovecotPid > 0) await gone(dovecotPid, 10_000)
      rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
    },
  }
}
