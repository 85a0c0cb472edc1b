import { useEffect, useState } from 'react'
import { absoluteUtc, relativeArrival } from '#app/leads/when-arrived'

/**
 * When a submission arrived. The server renders a fixed UTC date (so hydration matches);
 * the browser then says it relative to now in the viewer's own time zone, every minute.
 */
export function ArrivalTime({ iso }: { iso: string }) {
  const [text, setText] = useState(() => absoluteUtc(iso))
  useEffect(() => {
    const show = () => setText(relativeArrival(iso, new Date()))
    show()
    const every = setInterval(show, 60_000)
    return () => clearInterval(every)
  }, [iso])
  return (
    <time dateTime={iso} title={absoluteUtc(iso)} className="text-sm text-stone-600">
      {text}
    </time>
  )
}
