import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'

let hydrated = false
function hydrate() {
  if (hydrated) return
  hydrated = true
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    )
  })
}

// The server's HTML is painted before hydration starts, however fast the scripts arrived: on a
// slow phone a full inbox is seen at once rather than after React's work. A tab that is (or
// goes) in the background paints nothing, so it hydrates at once; a frame that never comes is
// not waited for long.
if (document.visibilityState === 'visible') {
  requestAnimationFrame(() => setTimeout(hydrate, 0))
  document.addEventListener('visibilitychange', hydrate, { once: true })
  setTimeout(hydrate, 200)
} else {
  hydrate()
}
