import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import type { OrderLineRead, OrderRead } from '#app/analysis/analysis'
import type { Submission } from '#app/leads/lead'
import type { Order } from '#app/leads/order'
import type { OrderAnswer, OrderDraft, Ordering } from './order-answer'
import { priceOrder, type PricedLine } from './order-pricing'
import { lineWords, moneyWords, orderInOneLine, pickUpWords } from './order-words'
import { declineReasons, draftDecline, type DeclineReason } from './order-drafts'

const fieldStyle =
  'rounded-lg border border-stone-300 bg-white px-2 py-1.5 text-base focus:ring-2 focus:ring-green-700 focus:outline-none'
const mainButton =
  'rounded-full bg-green-800 px-5 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-green-900 disabled:opacity-60'
const summaryStyle =
  'inline-block cursor-pointer list-none rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

const statusWords: Record<Order['status'], string> = {
  confirmed: 'Order confirmed',
  cancelled: 'Order cancelled',
  collected: 'Order collected',
  'not-collected': 'Order not collected',
}

/**
 * On a lead's card: the order read from the message, priced from this week's list, to change and
 * confirm (the confirmation drafted to change first) or decline; once confirmed, the order as it is.
 */
export function OrderOnCard({
  submission,
  ordering,
  answered,
}: {
  submission: Submission
  ordering: Ordering
  /** The page's answer to this card's order form, sent without JavaScript. */
  answered: OrderAnswer | null
}) {
  const fetcher = useFetcher<{ orderAnswer?: OrderAnswer }>()
  // A draft set aside to change the order again (without JavaScript, the link loads the page afresh).
  const [setAside, setSetAside] = useState<OrderAnswer | null>(null)
  const read = submission.analysis?.order ?? null
  const order = ordering.orders[submission.id]
  if (order && order.status !== 'cancelled') return <ConfirmedOrder order={order} />
  if (!read || read.lines.length === 0) return null
  const latest = fetcher.data?.orderAnswer ?? answered
  const answer = latest === setAside ? null : latest
  const mayWork = ordering.cannotConfirm === null && submission.spam === null
  return (
    <section
      aria-labelledby={`order-${submission.id}`}
      className="mt-4 rounded-xl bg-green-50 p-4 ring-1 ring-green-200"
      data-testid="order-read"
    >
      <h3 id={`order-${submission.id}`} className="text-xs font-bold tracking-widest text-green-900 uppercase">
        Order read from the message
      </h3>
      <p className="mt-1.5 font-semibold text-stone-900">{orderInOneLine(read.lines, read.when)}</p>
      {/* Once drafted, the lines shown are the order as changed, with the draft. */}
      {answer?.draft ? null : <PricedLines {...priceOrder(read.lines, ordering.list)} />}
      {read.unplaced.length > 0 ? (
        <p className="mt-1 text-sm text-stone-700">Not on the list: {read.unplaced.join(', ')}</p>
      ) : null}
      {order ? <p className="mt-1 text-sm text-stone-700">An earlier order from this message was cancelled.</p> : null}
      {answer?.error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          Not done: {answer.error}
        </p>
      ) : null}
      {mayWork ? (
        answer?.draft ? (
          <>
            <DraftToSend submission={submission} draft={answer.draft} fetcher={fetcher} />
            {/* Without JavaScript a GET of the page, which always loads it afresh (a link to its own address would not). */}
            <form
              method="get"
              action="/farm-sales"
              onSubmit={(event) => {
                event.preventDefault()
                setSetAside(latest)
              }}
            >
              <button type="submit" className="mt-2 text-sm font-semibold text-green-800 underline">
                Change the order
              </button>
            </form>
          </>
        ) : (
          <div className="mt-3 flex flex-wrap items-start gap-3">
            <ChangeAndConfirm submission={submission} read={read} ordering={ordering} fetcher={fetcher} />
            <Decline submission={submission} read={read} ordering={ordering} fetcher={fetcher} />
          </div>
        )
      ) : null}
    </section>
  )
}

function PricedLines({ lines, totalCents }: { lines: PricedLine[]; totalCents: number | null }) {
  return (
    <>
      <ul className="mt-2 space-y-0.5 text-sm text-stone-800">
        {lines.map((line, index) => (
          <li key={index} data-testid="order-line">
            {lineWords(line)}
            {line.priceCents !== null ? `: ${moneyWords(line.priceCents)}` : ''}
            {line.note ? (
              <span className={line.problem ? 'font-semibold text-red-800' : 'text-stone-600'}> ({line.note})</span>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-sm font-semibold text-stone-900" data-testid="order-total">
        {totalCents === null ? 'No total: a line has no price.' : `Total ${moneyWords(totalCents)}`}
      </p>
    </>
  )
}

function ConfirmedOrder({ order }: { order: Order }) {
  return (
    <section
      aria-label={statusWords[order.status]}
      className="mt-4 rounded-xl bg-white p-4 ring-1 ring-green-300"
      data-testid="order-confirmed"
    >
      <h3 className="text-xs font-bold tracking-widest text-green-900 uppercase">{statusWords[order.status]}</h3>
      <p className="mt-1.5 font-semibold text-stone-900">{orderInOneLine(order.lines, order.pickUp)}</p>
      <p className="mt-1 text-sm text-stone-800">
        {order.totalCents === null
          ? 'To pay at pick-up, as priced on the day'
          : `Total ${moneyWords(order.totalCents)}, to pay at pick-up`}
      </p>
    </section>
  )
}

type Fetcher = ReturnType<typeof useFetcher<{ orderAnswer?: OrderAnswer }>>

/** What the card's two forms (confirm, decline) work from. */
interface OrderForms {
  submission: Submission
  read: OrderRead
  ordering: Ordering
  fetcher: Fetcher
}

function LineFields({ lines, products }: { lines: OrderLineRead[]; products: string[] }) {
  // One spare line to add a product.
  const rows = [...lines, { product: '', quantity: 0, unit: '' }]
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-stone-800">Lines (0 takes a line out)</legend>
      {rows.map((line, index) => (
        <div key={index} className="mt-1.5 flex flex-wrap gap-2">
          <input
            name="quantity"
            inputMode="decimal"
            aria-label={`Quantity, line ${index + 1}`}
            defaultValue={line.product ? String(line.quantity) : ''}
            maxLength={8}
            className={`w-20 ${fieldStyle}`}
          />
          <input
            name="unit"
            aria-label={`Unit, line ${index + 1}`}
            placeholder="dozen, jar…"
            defaultValue={line.unit}
            maxLength={30}
            className={`w-28 ${fieldStyle}`}
          />
          <select
            name="product"
            aria-label={`Product, line ${index + 1}`}
            defaultValue={line.product}
            className={`w-full min-w-0 sm:w-auto sm:flex-1 ${fieldStyle}`}
          >
            <option value="">{index === lines.length ? 'Add a product…' : 'Choose…'}</option>
            {products.map((product) => (
              <option key={product} value={product}>
                {product}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  )
}

function PickUpFields({ when, today, id }: { when: OrderRead['when']; today: string; id: number }) {
  return (
    <fieldset className="mt-3">
      <legend className="text-sm font-semibold text-stone-800">Pick-up</legend>
      <div className="mt-1.5 flex flex-wrap gap-2">
        <label className="text-sm text-stone-800">
          Day{' '}
          <input
            type="date"
            name="date"
            min={today}
            required
            defaultValue={when?.date ?? today}
            className={fieldStyle}
            id={`order-date-${id}`}
          />
        </label>
        <label className="text-sm text-stone-800">
          From <input type="time" name="from" defaultValue={when?.from ?? ''} className={fieldStyle} />
        </label>
        <label className="text-sm text-stone-800">
          To <input type="time" name="to" defaultValue={when?.to ?? ''} className={fieldStyle} />
        </label>
      </div>
    </fieldset>
  )
}

function ChangeAndConfirm({ submission, read, ordering, fetcher }: OrderForms) {
  return (
    <details className="w-full sm:w-auto">
      <summary className={summaryStyle}>Confirm…</summary>
      <fetcher.Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="order-draft" />
        <input type="hidden" name="id" value={submission.id} />
        <LineFields lines={read.lines} products={ordering.list.map((item) => item.product)} />
        <PickUpFields when={read.when} today={ordering.today} id={submission.id} />
        <button type="submit" disabled={fetcher.state !== 'idle'} className={`mt-3 ${mainButton}`}>
          Draft the confirmation
        </button>
      </fetcher.Form>
    </details>
  )
}

function DraftToSend({ submission, draft, fetcher }: { submission: Submission; draft: OrderDraft; fetcher: Fetcher }) {
  return (
    <fetcher.Form method="post" className="mt-3" data-testid="order-draft">
      <input type="hidden" name="intent" value="order-confirm" />
      <input type="hidden" name="id" value={submission.id} />
      {draft.lines.map((line, index) => (
        <span key={index} hidden>
          <input type="hidden" name="product" value={line.product} />
          <input type="hidden" name="quantity" value={line.quantity} />
          <input type="hidden" name="unit" value={line.unit} />
        </span>
      ))}
      <input type="hidden" name="date" value={draft.pickUp.date} />
      <input type="hidden" name="from" value={draft.pickUp.from ?? ''} />
      <input type="hidden" name="to" value={draft.pickUp.to ?? ''} />
      <input type="hidden" name="total" value={draft.totalCents ?? ''} />
      <h4 className="text-sm font-semibold text-stone-800">The order as it will be confirmed</h4>
      <PricedLines lines={draft.lines} totalCents={draft.totalCents} />
      <p className="mt-1 text-sm text-stone-800">Pick-up {pickUpWords(draft.pickUp)}</p>
      {draft.closed ? (
        <p className="mt-1 text-sm font-semibold text-amber-900">The farm’s page says it is closed that day.</p>
      ) : null}
      <label htmlFor={`confirmation-${submission.id}`} className="mt-3 block text-sm font-semibold text-stone-800">
        Confirmation to {submission.name}
      </label>
      <textarea
        id={`confirmation-${submission.id}`}
        name="text"
        rows={14}
        defaultValue={draft.text}
        className="mt-1.5 block w-full rounded-xl border border-stone-300 bg-white px-3 py-2 text-base focus:ring-2 focus:ring-green-700 focus:outline-none"
      />
      <p className="mt-1 text-xs text-stone-600">{'{order link} becomes the link to their order.'}</p>
      <button type="submit" disabled={fetcher.state !== 'idle'} className={`mt-2 ${mainButton}`}>
        Confirm and send
      </button>
    </fetcher.Form>
  )
}

function Decline({ submission, read, ordering, fetcher }: OrderForms) {
  const soldOut = priceOrder(read.lines, ordering.list)
    .lines.filter((line) => line.problem === 'sold-out' || line.problem === 'not-for-sale')
    .map((line) => line.product)
    .filter((product, index, all) => all.indexOf(product) === index)
  const words = (reason: DeclineReason) =>
    draftDecline({
      name: submission.name,
      reason,
      soldOut,
      pickUp: read.when,
      farmName: ordering.farmName,
      tellMeUrl: ordering.tellMeBase
        ? (product) => `${ordering.tellMeBase}?product=${encodeURIComponent(product)}`
        : null,
    })
  const [reason, setReason] = useState<DeclineReason>(soldOut.length > 0 ? 'sold-out' : 'other')
  const [text, setText] = useState(() => words(reason))
  return (
    <details className="w-full sm:w-auto">
      <summary className={summaryStyle}>Decline…</summary>
      <fetcher.Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="order-decline" />
        <input type="hidden" name="id" value={submission.id} />
        <fieldset>
          <legend className="text-sm font-semibold text-stone-800">Why</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {Object.entries(declineReasons).map(([value, label]) => (
              <label key={value} className="text-sm text-stone-800">
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  checked={reason === value}
                  onChange={() => {
                    setReason(value as DeclineReason)
                    setText(words(value as DeclineReason))
                  }}
                />{' '}
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <label htmlFor={`decline-${submission.id}`} className="mt-3 block text-sm font-semibold text-stone-800">
          Words to {submission.name}
        </label>
        <textarea
          id={`decline-${submission.id}`}
          name="text"
          rows={8}
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="mt-1.5 block w-full rounded-xl border border-stone-300 bg-white px-3 py-2 text-base focus:ring-2 focus:ring-green-700 focus:outline-none"
        />
        <button type="submit" disabled={fetcher.state !== 'idle'} className={`mt-2 ${mainButton}`}>
          Decline and send
        </button>
      </fetcher.Form>
    </details>
  )
}
