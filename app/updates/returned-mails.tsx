import { complaintLimits, shareOf, type ReturnedMail, type ReturnRates } from './update'
import { shortTime } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'

const percent = (share: number) => `${(share * 100).toFixed(2)} %`

/**
 * What came back of the updates: the link to the farm's mailbox, the bounce and complaint rates of
 * the last 30 days (with a warning past 0.1 % of complaints; past 0.3 % no update goes out), and
 * the latest bounces and complaints, each readable as it came, and a stop undone if made in error.
 */
export function ReturnedMails({
  linkSays,
  rates,
  returned,
}: {
  /** How the link to the farm's mailbox is, in words. */
  linkSays: string
  rates: ReturnRates
  returned: ReturnedMail[]
}) {
  const zone = useFarmClock()
  const complaints = shareOf(rates.complaints, rates.sent)
  return (
    <section aria-labelledby="returned-title" className="mt-12">
      <h2 id="returned-title" className="font-serif text-2xl font-bold text-green-900">
        What came back
      </h2>
      <p data-testid="mailbox-link" className="mt-1 text-sm text-stone-700">
        {linkSays}{' '}
        <a href="/farm-sales/settings#mail" className="font-semibold text-green-800 underline">
          Mailbox settings
        </a>
      </p>
      <p className="mt-3 text-sm text-stone-700">The update mails of the last 30 days:</p>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
        {(
          [
            ['Sent', rates.sent.toLocaleString('en-GB')],
            ['Bounced', `${rates.bounced.toLocaleString('en-GB')} (${percent(shareOf(rates.bounced, rates.sent))})`],
            ['Reported as spam', `${rates.complaints.toLocaleString('en-GB')} (${percent(complaints)})`],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-stone-50 px-3 py-2 ring-1 ring-stone-200">
            <dt className="text-xs text-stone-600">{label}</dt>
            <dd className="text-lg font-bold text-stone-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {complaints > complaintLimits.stopsAt ? (
        <p role="alert" className="mt-3 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-950 ring-1 ring-red-200">
          No update can go out: more than 0.3 % of the update mails of the last 30 days were reported as spam, and Gmail
          and Yahoo refuse mail from senders above that. Send to fewer, more interested people once the 30 days have
          passed.
        </p>
      ) : complaints > complaintLimits.warnsAt ? (
        <p role="alert" className="mt-3 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200">
          More than 0.1 % of the update mails of the last 30 days were reported as spam. Past 0.3 %, no update can go
          out: send only what your subscribers asked for.
        </p>
      ) : null}
      {returned.length > 0 ? (
        <ol className="mt-4 space-y-3">
          {returned.map((mail) => (
            <li
              key={mail.id}
              data-testid="returned-mail"
              className="rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-stone-200"
            >
              <p className="font-semibold break-words text-stone-900">
                {mail.kind === 'complaint'
                  ? 'Reported as spam'
                  : mail.permanent
                    ? 'Bounced'
                    : 'Bounced for now (counted; three in 30 days stop the address)'}
                : {mail.address}
              </p>
              <p className="mt-0.5 text-stone-600">
                <time dateTime={mail.receivedAt}>{shortTime(Date.parse(mail.receivedAt), zone)}</time>
                {mail.status ? ` · status ${mail.status}` : ''}
              </p>
              {mail.words ? <p className="mt-1 break-words text-stone-800">{mail.words}</p> : null}
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <a
                  href={`/farm-sales/updates/returned/${mail.id}`}
                  className="font-semibold text-green-800 underline"
                  aria-label={`Read it as it came: ${mail.kind === 'complaint' ? 'the report' : 'the bounce'} about ${mail.address}`}
                >
                  Read it as it came
                </a>
                {mail.stopped ? (
                  <form method="post">
                    <input type="hidden" name="id" value={mail.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="mail-again"
                      aria-label={`Mail ${mail.address} again`}
                      className="rounded-full px-4 py-1.5 font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50"
                    >
                      Mail them again
                    </button>
                  </form>
                ) : null}
              </div>
              {mail.stopped ? (
                <p className="mt-1 text-xs text-stone-600">
                  {mail.kind === 'complaint'
                    ? 'They were unsubscribed and are no longer mailed unasked. Undoing this does not subscribe them again: only they can.'
                    : 'No longer mailed unasked (updates, acknowledgements) until they write again. Undo it if this was not a real bounce.'}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-3 text-sm text-stone-700">No bounces or complaints yet.</p>
      )}
    </section>
  )
}
