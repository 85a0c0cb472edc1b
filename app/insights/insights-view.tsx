import { Link } from '@remix-run/react'
import { zoneWords } from '#app/clock/dates'
import { lineWords } from '#app/orders/order-words'
import { Chart, ColumnChart, InboxLink, Legend, NumbersTable, PartsBar, WeekAxis } from './charts'
import {
  dayLabel,
  insightRanges,
  intentName,
  productChange,
  waitWords,
  weekLabel,
  type InsightRange,
  type Insights,
} from './insights'

const rangeWords: Record<InsightRange, string> = { 4: '4 weeks', 12: '12 weeks', 52: 'A year' }
const inRange: Record<InsightRange, string> = { 4: 'the last 4 weeks', 12: 'the last 12 weeks', 52: 'the last year' }

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The insights of a range: what people ask for, how fast they are answered, and the updates. */
export function InsightsView({ insights, note }: { insights: Insights; note: string | null }) {
  const period = inRange[insights.weeks]
  return (
    <>
      <p className="mt-3 text-stone-700">
        {`Leads in the inbox, week by week (weeks start on Monday, ${zoneWords(insights.timeZone)}; this week so far is the last). Spam never counts.`}
      </p>
      <nav aria-label="Range" className="mt-4 flex flex-wrap gap-2">
        {insightRanges.map((weeks) => (
          <Link
            key={weeks}
            to={`?weeks=${weeks}`}
            aria-current={weeks === insights.weeks ? 'page' : undefined}
            className={`rounded-full px-4 py-1.5 text-sm font-semibold ring-1 ${
              weeks === insights.weeks
                ? 'bg-green-800 text-white ring-green-800'
                : 'bg-white text-green-900 ring-stone-300'
            }`}
          >
            {rangeWords[weeks]}
          </Link>
        ))}
      </nav>
      {note ? (
        <p role="status" className="mt-4 rounded-2xl bg-amber-100 px-5 py-3 text-amber-950 ring-1 ring-amber-300">
          {note}
        </p>
      ) : null}
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-2">
        <LeadsChart insights={insights} period={period} />
        <ProductsChart insights={insights} period={period} />
        <AnswerTimesChart insights={insights} period={period} />
        <WaitingChart insights={insights} />
        <OrdersChart insights={insights} period={period} />
        <ProductsOrderedChart insights={insights} period={period} />
        <SubscribersChart insights={insights} period={period} />
        <UpdatesChart insights={insights} period={period} />
      </div>
    </>
  )
}

type ChartProps = { insights: Insights; period: string }

function LeadsChart({ insights, period }: ChartProps) {
  const { leads } = insights
  const busiest = leads.byWeek.reduce((most, week) => (week.total > most.total ? week : most), leads.byWeek[0]!)
  const top = leads.intents.reduce<string | null>(
    (most, intent) => (most === null || leads.byIntent[intent]!.count > leads.byIntent[most]!.count ? intent : most),
    null,
  )
  const summary =
    leads.total === 0
      ? `No leads in ${period}.`
      : `${plural(leads.total, 'lead')} in ${period}; the most in the week of ${weekLabel(busiest.week, insights.timeZone)} (${busiest.total}).` +
        (top ? ` Asked most: ${intentName(top)} (${leads.byIntent[top]!.count}).` : '')
  return (
    <Chart
      title="What people ask for"
      summary={summary}
      wide
      empty={leads.total === 0}
      picture={
        <ColumnChart
          label={`Leads per week of ${period}, stacked by what each asks first`}
          columns={leads.byWeek.map((week) => ({
            up: leads.intents.map((intent) => ({ series: intent, value: week.byIntent[intent] ?? 0 })),
          }))}
        />
      }
      below={
        <>
          <WeekAxis labels={leads.byWeek.map((week) => weekLabel(week.week, insights.timeZone))} />
          <p className="mt-3 text-xs text-stone-600">
            Each lead counts once, under what it asks first; a kind opens every lead that asks it, first or not.
          </p>
          <Legend
            items={leads.intents.map((intent) => ({
              series: intent,
              words: `${intentName(intent)} (${leads.byIntent[intent]!.count})`,
              to: leads.byIntent[intent]!.inbox,
            }))}
          />
        </>
      }
      numbers={
        <NumbersTable
          head={['Week of', 'Leads', ...leads.intents.map(intentName)]}
          rows={leads.byWeek.map((week) => [
            <InboxLink to={week.inbox}>{dayLabel(week.week, insights.timeZone)}</InboxLink>,
            week.total,
            ...leads.intents.map((intent) => week.byIntent[intent] ?? 0),
          ])}
        />
      }
    />
  )
}

function ProductsChart({ insights, period }: ChartProps) {
  const { products } = insights
  const most = Math.max(1, ...products.map((product) => Math.max(product.count, product.before)))
  const summary =
    products.length === 0
      ? `No products asked about in ${period}, nor in the weeks before.`
      : `Against the ${insights.weeks === 52 ? 'year' : `${insights.weeks} weeks`} before: ${products
          .slice(0, 3)
          .map(productChange)
          .join('; ')}.`
  return (
    <Chart
      title="Products asked about"
      summary={summary}
      empty={products.length === 0}
      picture={
        <ul className="space-y-2">
          {products.map((product) => (
            <li key={product.product}>
              <InboxLink to={product.inbox} className="text-sm [overflow-wrap:anywhere]">
                {productChange(product)}
              </InboxLink>
              <PartsBarPair now={product.count} before={product.before} most={most} />
            </li>
          ))}
        </ul>
      }
      below={
        <Legend
          items={[
            { series: 'now', words: 'These weeks' },
            { series: 'before', words: 'The weeks before' },
          ]}
        />
      }
      numbers={
        <NumbersTable
          head={['Product', 'These weeks', 'The weeks before']}
          rows={products.map((product) => [product.product, product.count, product.before])}
        />
      }
    />
  )
}

/** A product's two bars, these weeks over the weeks before, on the chart's one scale. */
function PartsBarPair({ now, before, most }: { now: number; before: number; most: number }) {
  return (
    <div className="mt-0.5 space-y-0.5">
      <PartsBar label={null} whole={most} parts={[{ series: 'now', value: now }]} />
      <PartsBar label={null} whole={most} parts={[{ series: 'before', value: before }]} />
    </div>
  )
}

function AnswerTimesChart({ insights, period }: ChartProps) {
  const weeks = insights.answers.byWeek
  const answered = weeks.reduce((sum, week) => sum + week.answered, 0)
  const latest = [...weeks].reverse().find((week) => week.answered > 0)
  const slowest = Math.max(0, ...weeks.map((week) => week.p90Ms ?? 0))
  const summary = latest
    ? `${plural(answered, 'lead')} of ${period} answered. Of those that came in the week of ${weekLabel(latest.week, insights.timeZone)}, half were answered within ${waitWords(latest.medianMs!)} and 9 in 10 within ${waitWords(latest.p90Ms!)}.`
    : `No lead of ${period} has been answered from the inbox yet.`
  return (
    <Chart
      title="How fast leads are answered"
      summary={summary}
      empty={answered === 0}
      picture={
        <ColumnChart
          label={`Time to the first reply per week of ${period}: the median as a bar, the 90th percentile as a mark`}
          columns={weeks.map((week) => ({ up: [{ series: 'median', value: week.medianMs ?? 0 }] }))}
          marks={weeks.map((week) => ({ series: 'p90', value: week.p90Ms }))}
        />
      }
      below={
        <>
          <WeekAxis labels={weeks.map((week) => weekLabel(week.week, insights.timeZone))} />
          <Legend
            items={[
              { series: 'median', words: 'Half were answered within (median)' },
              { series: 'p90', words: '9 in 10 within (90th percentile)' },
            ]}
          />
          {slowest > 0 ? (
            <p className="mt-1 text-xs text-stone-600">The tallest mark is {waitWords(slowest)}.</p>
          ) : null}
        </>
      }
      numbers={
        <NumbersTable
          head={['Week of', 'Answered', 'Median', '90th percentile']}
          rows={weeks.map((week) => [
            <InboxLink to={week.inbox}>{dayLabel(week.week, insights.timeZone)}</InboxLink>,
            week.answered,
            week.medianMs === null ? '–' : waitWords(week.medianMs),
            week.p90Ms === null ? '–' : waitWords(week.p90Ms),
          ])}
        />
      }
    />
  )
}

function WaitingChart({ insights }: { insights: Insights }) {
  const { waiting } = insights.answers
  const total = waiting.reduce((sum, age) => sum + age.count, 0)
  const most = Math.max(...waiting.map((age) => age.count))
  const summary =
    total === 0
      ? 'No lead waits for an answer.'
      : `${plural(total, 'lead waits', 'leads wait')} for an answer: ${waiting[0]!.count} under a day, ${waiting[1]!.count} from 1 to 3 days and ${waiting[2]!.count} longer.`
  return (
    <Chart
      title="Still waiting for an answer"
      summary={summary}
      empty={total === 0}
      picture={
        <ul className="space-y-2 text-sm">
          {waiting.map((age, index) => (
            <li key={age.label} className="grid grid-cols-[9rem_1fr] items-center gap-x-3">
              <InboxLink to={age.inbox}>
                {age.label}: {age.count}
              </InboxLink>
              <PartsBar label={null} whole={most} parts={[{ series: `waiting-${index}`, value: age.count }]} />
            </li>
          ))}
        </ul>
      }
      numbers={<NumbersTable head={['Waiting', 'Leads']} rows={waiting.map((age) => [age.label, age.count])} />}
    />
  )
}

function OrdersChart({ insights, period }: ChartProps) {
  const { byWeek } = insights.orders
  const orders = byWeek.reduce((sum, week) => sum + week.orders, 0)
  const notCollected = byWeek.reduce((sum, week) => sum + week.notCollected, 0)
  return (
    <Chart
      title="Orders"
      summary={
        orders === 0
          ? `No orders picked up in ${period}.`
          : `${plural(orders, 'order')} for pick-up in ${period}; ${notCollected} not collected.`
      }
      empty={orders === 0}
      picture={
        <ColumnChart
          label={`Orders per week of pick-up, collected or to collect (up) and not collected, in ${period}`}
          columns={byWeek.map((week) => ({
            up: [
              { series: 'ordered', value: week.orders - week.notCollected },
              { series: 'not-collected', value: week.notCollected },
            ],
          }))}
        />
      }
      below={
        <>
          <WeekAxis labels={byWeek.map((week) => weekLabel(week.week, insights.timeZone))} />
          <Legend
            items={[
              { series: 'ordered', words: 'Collected or to collect' },
              { series: 'not-collected', words: 'Not collected' },
            ]}
          />
          <p className="mt-2 text-sm">
            <Link to="/farm-sales/pickups?days=week" className="text-green-800 underline">
              This week’s pick-ups
            </Link>
          </p>
        </>
      }
      numbers={
        <NumbersTable
          head={['Week of', 'Orders', 'Not collected']}
          rows={byWeek.map((week) => [dayLabel(week.week, insights.timeZone), week.orders, week.notCollected])}
        />
      }
    />
  )
}

function ProductsOrderedChart({ insights, period }: ChartProps) {
  const { products } = insights.orders
  return (
    <Chart
      title="Products ordered"
      summary={
        products.length === 0
          ? `No products ordered for ${period}.`
          : `For ${period}: ${products.slice(0, 3).map(lineWords).join(', ')}${products.length > 3 ? ', and more' : ''}.`
      }
      empty={products.length === 0}
      picture={
        <ul className="space-y-2">
          {products.map((line) => (
            <li key={`${line.product}\n${line.unit}`} className="text-sm text-stone-900">
              {lineWords(line)}
            </li>
          ))}
        </ul>
      }
      numbers={
        <NumbersTable
          head={['Product', 'Unit', 'Quantity']}
          rows={products.map((line) => [line.product, line.unit || 'each', line.quantity])}
        />
      }
    />
  )
}

function SubscribersChart({ insights, period }: ChartProps) {
  const { subscribers } = insights
  const sum = (key: 'joined' | 'left' | 'bounced') => subscribers.byWeek.reduce((total, week) => total + week[key], 0)
  const moved = sum('joined') + sum('left') + sum('bounced')
  const summary = `${plural(subscribers.now, 'subscriber')} now. In ${period}, ${sum('joined')} joined, ${sum('left')} left and ${sum('bounced')} bounced.`
  return (
    <Chart
      title="Subscribers"
      summary={summary}
      empty={moved === 0}
      picture={
        <ColumnChart
          label={`Subscribers who joined (up), left or bounced (down), per week of ${period}`}
          columns={subscribers.byWeek.map((week) => ({
            up: [{ series: 'joined', value: week.joined }],
            down: [
              { series: 'left', value: week.left },
              { series: 'bounced', value: week.bounced },
            ],
          }))}
        />
      }
      below={
        <>
          <WeekAxis labels={subscribers.byWeek.map((week) => weekLabel(week.week, insights.timeZone))} />
          <Legend
            items={[
              { series: 'joined', words: 'Joined' },
              { series: 'left', words: 'Left' },
              { series: 'bounced', words: 'Bounced' },
            ]}
          />
          <p className="mt-2 text-sm">
            <Link to="/farm-sales/updates" className="text-green-800 underline">
              The subscribers and updates
            </Link>
          </p>
        </>
      }
      numbers={
        <NumbersTable
          head={['Week of', 'Joined', 'Left', 'Bounced']}
          rows={subscribers.byWeek.map((week) => [
            dayLabel(week.week, insights.timeZone),
            week.joined,
            week.left,
            week.bounced,
          ])}
        />
      }
    />
  )
}

function UpdatesChart({ insights, period }: ChartProps) {
  const { updates } = insights
  const summary =
    updates.length === 0
      ? `No updates sent in ${period}.`
      : `${plural(updates.length, 'update')} sent in ${period}${insights.moreUpdates ? ' (the latest 10; more were sent)' : ''}.`
  return (
    <Chart
      title="Updates sent"
      summary={summary}
      empty={updates.length === 0}
      picture={
        <ul className="space-y-3">
          {updates.map((update) => {
            const words = `Sent ${update.sent} of ${update.recipients}, failed ${update.failed}, bounced ${update.bounced}, unsubscribed ${update.unsubscribed}, complained ${update.complained}`
            return (
              <li key={update.id}>
                <p className="text-sm font-semibold break-words text-stone-900">{update.subject}</p>
                <PartsBar
                  label={null}
                  whole={update.recipients}
                  parts={[
                    { series: 'sent', value: update.sent },
                    { series: 'bounced', value: update.bounced },
                    { series: 'failed', value: update.failed },
                  ]}
                />
                <p className="mt-0.5 text-xs text-stone-600">{words}.</p>
              </li>
            )
          })}
        </ul>
      }
      below={
        <Legend
          items={[
            { series: 'sent', words: 'Sent' },
            { series: 'bounced', words: 'Bounced' },
            { series: 'failed', words: 'Failed' },
          ]}
        />
      }
      numbers={
        <NumbersTable
          head={['Update', 'Sent on', 'Recipients', 'Sent', 'Failed', 'Unsubscribed', 'Bounced', 'Complained']}
          rows={updates.map((update) => [
            update.subject,
            dayLabel(update.sentAt, insights.timeZone),
            update.recipients,
            update.sent,
            update.failed,
            update.unsubscribed,
            update.bounced,
            update.complained,
          ])}
        />
      }
    />
  )
}
