import { Link } from '@remix-run/react'
import { useId } from 'react'

// Every chart is a picture drawn here as SVG, on the server as in the browser, with no script of
// its own: its shapes only. Its words (titles, axes, legends, links) are HTML around it, so they
// stay readable at any width, and its numbers are a table behind 'Show the numbers'.

/** The colour of each series: the intents (in analysis order), then the other charts' own. */
export const seriesColours: Record<string, string> = {
  order: '#15803d',
  product_inquiry: '#0e7490',
  pricing: '#b45309',
  offers: '#7c3aed',
  visit: '#2563eb',
  wholesale: '#be123c',
  complaint: '#86198f',
  feedback: '#a16207',
  other: '#57534e',
  unread: '#78716c',
  median: '#15803d',
  p90: '#1c1917',
  joined: '#15803d',
  left: '#d97706',
  bounced: '#b91c1c',
  before: '#78716c',
  now: '#15803d',
  sent: '#15803d',
  failed: '#6b21a8',
  'waiting-0': '#15803d',
  'waiting-1': '#d97706',
  'waiting-2': '#b91c1c',
  ordered: '#15803d',
  'not-collected': '#b91c1c',
}

/** A chart: its title, what it says in a sentence or two, the picture, and its numbers as a table. */
export function Chart({
  title,
  summary,
  picture,
  below,
  numbers,
  empty = false,
  wide = false,
}: {
  title: string
  summary: React.ReactNode
  picture: React.ReactNode
  /** The legend, axes and links under the picture. */
  below?: React.ReactNode
  numbers: React.ReactNode
  /** Nothing to draw: the summary says so, and no blank picture is shown. */
  empty?: boolean
  /** Across the page's two columns: the weeks side by side need the room. */
  wide?: boolean
}) {
  const id = useId()
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`min-w-0 ${wide ? 'lg:col-span-2' : ''} rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:p-5`}
    >
      <h2 id={`${id}-title`} className="font-serif text-xl font-bold text-green-900">
        {title}
      </h2>
      <p className="mt-1 text-stone-700" data-testid="summary">
        {summary}
      </p>
      {empty ? null : (
        <>
          <div className="mt-3">{picture}</div>
          {below}
        </>
      )}
      <details className="mt-3">
        <summary className="cursor-pointer font-semibold text-green-800 underline">
          Show the numbers<span className="sr-only">: {title}</span>
        </summary>
        <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label={`${title}: the numbers`}>
          {numbers}
        </div>
      </details>
    </section>
  )
}

/** A table of a chart's numbers: a header row and rows of cells, the first of each row a heading. */
export function NumbersTable({ head, rows }: { head: string[]; rows: React.ReactNode[][] }) {
  return (
    <table className="w-full text-left text-sm text-stone-800">
      <thead>
        <tr className="border-b border-stone-200">
          {head.map((cell) => (
            <th key={cell} scope="col" className="py-1 pr-3 font-semibold">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={index} className="border-b border-stone-100">
            {row.map((cell, column) =>
              column === 0 ? (
                <th key={column} scope="row" className="py-1 pr-3 font-normal whitespace-nowrap">
                  {cell}
                </th>
              ) : (
                <td key={column} className="py-1 pr-3 tabular-nums">
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * The picture's frame: a box the bars fill edge to edge. Named for a screen reader by what it
 * shows (the summary beside it says what it finds); `label` null hides a bar whose words stand
 * next to it.
 */
function Picture({
  label,
  height = 160,
  children,
}: {
  label: string | null
  height?: number
  children: React.ReactNode
}) {
  return (
    <svg
      {...(label === null ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label })}
      viewBox={`0 0 1000 ${height}`}
      preserveAspectRatio="none"
      className="block w-full"
      style={{ height }}
    >
      {children}
    </svg>
  )
}

const gap = 0.2

/** A part's fill, and a white edge so parts that touch stay apart however close their colours. */
const parted = (series: string) => ({
  fill: seriesColours[series],
  stroke: '#ffffff',
  strokeWidth: 1,
  vectorEffect: 'non-scaling-stroke' as const,
})

/**
 * Bars side by side, one column per week, each a stack of parts (bottom first); `down` parts hang
 * below a middle line (the subscribers who left), when any column has some.
 */
export function ColumnChart({
  label,
  columns,
  marks,
}: {
  label: string
  columns: Array<{ up: Array<{ series: string; value: number }>; down?: Array<{ series: string; value: number }> }>
  /** A thin mark per column at a value on the same scale (the 90th percentile over the median). */
  marks?: Array<{ series: string; value: number | null }>
}) {
  const height = 160
  const sum = (parts: Array<{ value: number }> = []) => parts.reduce((total, part) => total + part.value, 0)
  const most = Math.max(1, ...columns.map((column) => sum(column.up)), ...(marks ?? []).map((mark) => mark.value ?? 0))
  const mostDown = Math.max(0, ...columns.map((column) => sum(column.down)))
  const scale = (height - 2) / (most + mostDown)
  const base = 1 + most * scale
  const width = 1000 / columns.length
  return (
    <Picture label={label} height={height}>
      <line x1={0} x2={1000} y1={base} y2={base} stroke="#d6d3d1" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      {columns.map((column, index) => {
        const x = index * width + (width * gap) / 2
        let top = base
        let bottom = base
        return (
          <g key={index}>
            {column.up.map((part) => {
              const h = part.value * scale
              top -= h
              return h > 0 ? (
                <rect key={part.series} x={x} y={top} width={width * (1 - gap)} height={h} {...parted(part.series)} />
              ) : null
            })}
            {(column.down ?? []).map((part) => {
              const h = part.value * scale
              bottom += h
              return h > 0 ? (
                <rect
                  key={part.series}
                  x={x}
                  y={bottom - h}
                  width={width * (1 - gap)}
                  height={h}
                  {...parted(part.series)}
                />
              ) : null
            })}
            {marks?.[index]?.value != null ? (
              <rect
                x={x}
                y={base - marks[index].value * scale - 1.5}
                width={width * (1 - gap)}
                height={3}
                fill={seriesColours[marks[index].series]}
              />
            ) : null}
          </g>
        )
      })}
    </Picture>
  )
}

/** One row's parts side by side along a bar of the whole (an update's mails: sent, failed, bounced). */
export function PartsBar({
  label,
  whole,
  parts,
}: {
  label: string | null
  whole: number
  parts: Array<{ series: string; value: number }>
}) {
  let x = 0
  return (
    <Picture label={label} height={14}>
      <rect x={0} y={0} width={1000} height={14} fill="#f5f5f4" />
      {parts.map((part) => {
        const width = whole > 0 ? (part.value / whole) * 1000 : 0
        x += width
        return width > 0 ? (
          <rect key={part.series} x={x - width} y={0} width={width} height={14} {...parted(part.series)} />
        ) : null
      })}
    </Picture>
  )
}

/** The week labels under a column chart: the first, the middle and the last. */
export function WeekAxis({ labels }: { labels: string[] }) {
  const shown = labels.length <= 4 ? labels : [labels[0]!, labels[Math.floor(labels.length / 2)]!, labels.at(-1)!]
  return (
    <p aria-hidden="true" className="mt-1 flex justify-between text-xs text-stone-600">
      {shown.map((text, index) => (
        <span key={index}>{text}</span>
      ))}
    </p>
  )
}

/** Words that open the inbox at those leads, or plain words when there are none to show. */
export function InboxLink({
  to,
  className = '',
  children,
}: {
  to: string | null
  className?: string
  children: React.ReactNode
}) {
  return to ? (
    <Link to={to} className={`text-green-800 underline ${className}`}>
      {children}
    </Link>
  ) : (
    <span className={className}>{children}</span>
  )
}

/** A legend: a swatch and words per series, each a link where the inbox can show those leads. */
export function Legend({ items }: { items: Array<{ series: string; words: string; to?: string | null }> }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-800">
      {items.map((item) => (
        <li key={item.series} className="flex items-center gap-1.5">
          <svg aria-hidden="true" width="12" height="12" className="shrink-0">
            <rect width="12" height="12" rx="2" fill={seriesColours[item.series]} />
          </svg>
          <InboxLink to={item.to ?? null}>{item.words}</InboxLink>
        </li>
      ))}
    </ul>
  )
}
