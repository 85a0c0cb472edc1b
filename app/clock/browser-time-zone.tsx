import { useEffect, useState } from 'react'

/**
 * A hidden field holding the browser's own time zone, filled once the page's script runs: sent
 * with a first sign-in, it sets the farm's clock while none is chosen. Without JavaScript it stays
 * empty, and the clock stays as it is.
 */
export function BrowserTimeZone() {
  const [zone, setZone] = useState('')
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? ''), [])
  return <input type="hidden" name="timeZone" value={zone} />
}
