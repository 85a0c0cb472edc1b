// The worst mail a stranger can send the farm's mailbox, read while /healthz is asked on fresh
// connections every 5 ms: HTML just under 1 MB, three of nested lists from strangers that answer
// nothing, and six that answer the farm's reply: three of nested lists (read to the time limit)
// and three of 200,000 list items (one held the whole site 11 s when mail was read on its thread).
import { request } from 'node:http'
import { signInAsOwner } from '#tests/support/owner'
import { startMailStack } from '#tests/support/mail-stack'
import { freePort, startServer } from '#tests/support/server'
import { p99 } from './percentiles'

const password = 'bench owner password'
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Time to the first byte of /healthz on a connection of its own. */
const healthz = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    request(`${url}/healthz`, { agent: false }, (res) => {
      const ttfb = performance.now() - started
      res.resume().on('end', () => resolve(ttfb))
    })
      .on('error', reject)
      .end()
  })

async function probe(url: string, until: () => Promise<boolean>) {
  const times: number[] = []
  let reading = true
  const probing = (async () => {
    while (reading) {
      times.push(await healthz(url))
      await wait(5)
    }
  })()
  for (let waited = 0; !(await until()); waited += 250) {
    if (waited > 120_000) throw new Error('the answers never reached the card')
    await wait(250)
  }
  reading = false
  await probing
  return times
}

export async function measureMailReading(): Promise<Record<string, number>> {
  const stack = await startMailStack()
  const port = await freePort()
  const server = await startServer({
    port,
    env: {
      OWNER_PASSWORD: password,
      SMTP_URL: stack.smtpUrl,
      NOTIFY_EMAIL: stack.farmAddress,
      INBOUND_IMAP_URL: stack.imapUrl,
      NODE_EXTRA_CA_CERTS: stack.certificate,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  })
  try {
    const cookie = await signInAsOwner(server.url, password)
    const api = (path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: body ? JSON.stringify(body) : undefined,
      })
    const lead = await api('/api/submissions', { name: 'Ivy', email: 'ivy@remote.test', message: 'Plums, please?' })
    const { id } = ((await lead.json()) as { data: { id: number } }).data
    await api(`/api/submissions/${id}/replies`, { text: 'We have plums.' })
    while (!stack.remote.mails.some((mail) => /^Re: /.test(mail.subject ?? ''))) await wait(100)
    const replyId = stack.remote.mails.find((mail) => /^Re: /.test(mail.subject ?? ''))!.messageId!
    const idle: number[] = []
    for (let n = 0; n < 200; n++) idle.push(await healthz(server.url))
    const nested = '<ul><li>a'.repeat(110_000)
    const items = '<li>a'.repeat(200_000)
    const mail = (html: string, headers: string[]) =>
      [...headers, 'To: farm@farm.test', 'Content-Type: text/html', '', html, ''].join('\r\n')
    for (let n = 0; n < 3; n++) await stack.append(mail(nested, [`From: s${n}@stranger.test`, `Subject: Hi ${n}`]))
    for (const [n, html] of [nested, nested, nested, items, items, items].entries())
      await stack.append(mail(html, ['From: ivy@remote.test', `Subject: Lists ${n}`, `In-Reply-To: ${replyId}`]))
    const reading = await probe(server.url, async () => {
      const thread = (await (await api(`/api/submissions/${id}/replies`)).json()) as { data: Array<{ kind: string }> }
      return thread.data.filter((each) => each.kind === 'answer').length === 6
    })
    return {
      'healthz p99 idle ms': p99(idle),
      'healthz p99 reading ms': p99(reading),
      'healthz asked while reading': reading.length,
    }
  } finally {
    await server.stop()
    await stack.stop()
  }
}
