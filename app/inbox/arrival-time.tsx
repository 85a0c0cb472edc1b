import { useEffect, useState } from 'react'
import { zoneWords } from '#app/clock/dates'
import { useFarmClock } from '#app/clock/use-farm-clock'
import { absoluteTime, relativeArrival } from '#app/leads/when-arrived'

/**
 * When a submission arrived, on the farm's clock. The server renders the date and time (so
 * hydration matches); the browser then says it relative to now, every minute.
 */
export function ArrivalTime({ iso }: { iso: string }) {
  const zone = useFarmClock()
  const [text, setText] = useState(() => absoluteTime(iso, zone))
  useEffect(() => {
    const show = () => setText(relativeArrival(iso, new Date(), zone))
    show()
    const every = setInterval(show, 60_000)
    return () => clearInterval(every)
  }, [iso, zone])
  return (
    <time dateTime={iso} title={`${absoluteTime(iso, zone)} ${zoneWords(zone)}`} className="text-sm text-stone-600">
      {text}
    </time>
  )
}
