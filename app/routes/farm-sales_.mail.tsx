import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { domainOf } from '#app/delivery/dkim.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { checkMailDns, freeMailDomains, type RecordVerdict } from '#app/settings/mail-dns.server'
import { sendTestMail } from '#app/settings/settings-requests.server'
import { providersWith } from '#app/settings/mail-providers'

export const meta: MetaFunction = () => [{ title: 'Mail that lands' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/**
 * The mail set-up: the DNS records the From domain should publish for the farm's mail to be
 * trusted (SPF, DKIM, DMARC), each looked up live and said in words; never the key itself.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'settings:change', {
    as: 'page',
    to: 'set up the farm’s mail',
    showCannot: true,
  })
  if (cannot) return json({ cannot, setUp: null })
  const { notify, dkim } = context.settings.config
  if (!notify) return json({ cannot: null, setUp: null }, { headers: ownerDataHeaders })
  const domain = domainOf(notify.from)
  const mailServer = URL.canParse(notify.smtpUrl) ? new URL(notify.smtpUrl).hostname : null
  const records = await checkMailDns({
    domain,
    selector: dkim.selector,
    dkimRecord: context.dkim.record,
    mailServer,
    reportsTo: notify.to[0]!,
    resolveTxt: context.resolveTxt,
  })
  return json(
    { cannot: null, setUp: { from: notify.from, domain, freeMail: freeMailDomains.includes(domain), records } },
    { headers: ownerDataHeaders },
  )
}

/** 'Send a test mail' with the settings as they are. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'settings:change', {
    as: 'page',
    to: 'set up the farm’s mail',
  })
  const tested = await sendTestMail(context, pass, providersWith(context.settings.config.testMailProvider))
  return json(tested.ok ? { ok: true, said: tested.said } : { ok: false, said: tested.error }, {
    status: tested.ok ? 200 : 400,
    headers: ownerDataHeaders,
  })
}

const verdictWords: Record<RecordVerdict, string> = {
  ok: 'Published',
  missing: 'Missing',
  wrong: 'Wrong',
  unknown: 'Not checked',
}
const verdictStyle: Record<RecordVerdict, string> = {
  ok: 'bg-green-100 text-green-900 ring-green-300',
  missing: 'bg-amber-100 text-amber-950 ring-amber-300',
  wrong: 'bg-red-100 text-red-900 ring-red-300',
  unknown: 'bg-stone-100 text-stone-800 ring-stone-300',
}

export default function MailSetUp() {
  const { cannot, setUp } = useLoaderData<typeof loader>()
  const tested = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  return (
    <OwnerPage title="Mail that lands">
      {cannot ? (
        <CannotNote>{cannot}</CannotNote>
      ) : !setUp ? (
        <CannotNote>
          Mail is not set up yet.{' '}
          <Link to="/farm-sales/settings#mail" className="font-semibold underline">
            Set it up in the settings
          </Link>
          , then come back to publish its records.
        </CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700" hidden={setUp.freeMail}>
            Mail from <strong>{setUp.from}</strong> is trusted by mailbox providers when <strong>{setUp.domain}</strong>{' '}
            publishes these three records in its DNS. Add each as a TXT record where your domain is managed, then come
            back: each is checked live.{' '}
            <Link to="/farm-sales/settings#mail" className="font-semibold text-green-800 underline">
              Mail settings
            </Link>
          </p>
          {setUp.freeMail ? (
            <p role="alert" className="mt-4 rounded-2xl bg-red-50 px-5 py-4 text-red-900 ring-1 ring-red-200">
              {setUp.domain} is a free-mail domain: its DMARC says only its own servers send as it, so mail the farm’s
              site sends as {setUp.from} fails DMARC and lands in spam or nowhere. Send from an address at the farm’s
              own domain.
            </p>
          ) : null}
          {/* The records of a free-mail domain are not the farm's to publish: the warning says what to do instead. */}
          <ul className="mt-6 space-y-5" hidden={setUp.freeMail}>
            {setUp.records.map((record) => (
              <li key={record.kind} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 className="font-serif text-xl font-bold text-green-900">{record.kind}</h2>
                  <span
                    className={`rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ${verdictStyle[record.verdict]}`}
                  >
                    {verdictWords[record.verdict]}
                  </span>
                </div>
                <p className="mt-2 text-stone-800">{record.says}</p>
                <dl className="mt-3 grid gap-1 text-sm">
                  <dt className="font-semibold text-stone-800">Name</dt>
                  <dd>
                    <code className="break-all">{record.name}</code>
                  </dd>
                  <dt className="mt-1 font-semibold text-stone-800">TXT value to publish</dt>
                  <dd>
                    <code className="block rounded-lg bg-stone-50 px-2 py-1 break-all ring-1 ring-stone-200">
                      {record.publish}
                    </code>
                  </dd>
                  {record.found && record.verdict !== 'ok' ? (
                    <>
                      <dt className="mt-1 font-semibold text-stone-800">Found there now</dt>
                      <dd>
                        <code className="break-all">{record.found}</code>
                      </dd>
                    </>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
          <Form method="post" className="mt-6">
            <button
              type="submit"
              disabled={busy}
              className="rounded-full bg-green-800 px-5 py-2 text-sm font-semibold text-white hover:bg-green-900 disabled:opacity-60"
            >
              Send a test mail to me
            </button>
            {tested ? (
              <p role="status" className={`mt-2 text-sm font-medium ${tested.ok ? 'text-green-800' : 'text-red-800'}`}>
                {tested.said}
              </p>
            ) : null}
          </Form>
        </>
      )}
    </OwnerPage>
  )
}
