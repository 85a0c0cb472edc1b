import { intentWords } from '#app/analysis/intent-words'
import type { Intent } from '#app/analysis/analysis'
import type { UpdateReport } from './update'
import { shortTime } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'

function audienceWords({ products, intents }: UpdateReport['audience']): string {
  if (products.length + intents.length === 0) return 'every subscriber'
  const kinds = intents.map((intent) => intentWords[intent as Intent]?.filter.toLowerCase() ?? intent)
  return `subscribers who asked about ${[...products, ...kinds].join(', ')}`
}

/** Each past update, newest first: how many mails are queued, sent, failed (and why), and who left since. */
export function UpdateReports({ reports, sending }: { reports: UpdateReport[]; sending: boolean }) {
  const zone = useFarmClock()
  return (
    <section aria-labelledby="reports-title" className="mt-12">
      <h2 id="reports-title" className="font-serif text-2xl font-bold text-green-900">
        Sent updates
      </h2>
      {sending ? (
        <p className="mt-1 text-sm text-stone-600">
          Mails are going out; these numbers follow them (without JavaScript,{' '}
          <a href="/farm-sales/updates" className="font-semibold text-green-800 underline">
            look again
          </a>
          ).
        </p>
      ) : null}
      {reports.length === 0 ? (
        <p className="mt-3 text-stone-700">No updates yet.</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {reports.map((report) => (
            <li
              key={report.id}
              id={`update-${report.id}`}
              data-testid="update-report"
              className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
            >
              <h3 className="font-semibold break-words text-stone-900">{report.subject}</h3>
              <p className="mt-0.5 text-sm text-stone-600">
                <time dateTime={report.createdAt}>{shortTime(Date.parse(report.createdAt), zone)}</time>, to{' '}
                {audienceWords(report.audience)}
                {report.sentBy ? <span data-testid="sent-by">, by {report.sentBy}</span> : null}
              </p>
              <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                {(
                  [
                    ['Recipients', report.recipients],
                    ['Queued', report.queued],
                    ['Sent', report.sent],
                    ['Failed', report.failed],
                    ['Bounced', report.bounced],
                    ['Reported as spam', report.complained],
                    ['Unsubscribed since', report.unsubscribedSince],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="rounded-xl bg-stone-50 px-3 py-2 ring-1 ring-stone-200">
                    <dt className="text-xs text-stone-600">{label}</dt>
                    <dd className="text-lg font-bold text-stone-900 tabular-nums">{value.toLocaleString('en-GB')}</dd>
                  </div>
                ))}
              </dl>
              {report.retrying > 0 || report.skipped > 0 ? (
                <p className="mt-2 text-sm text-stone-700">
                  {report.retrying > 0 ? `${report.retrying} waiting to be tried again. ` : ''}
                  {report.skipped > 0 ? `${report.skipped} not sent: they left before their turn.` : ''}
                </p>
              ) : null}
              {report.failures.length > 0 ? (
                <ul className="mt-2 space-y-1 text-sm text-red-900">
                  {report.failures.map((failure) => (
                    <li key={failure.reason} className="break-words">
                      {failure.count} × the mail server said: {failure.reason}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
