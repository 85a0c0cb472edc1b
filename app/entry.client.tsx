import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'

function hydrate() {
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
// slow phone a full inbox is seen at once rather than after React's work. (A tab opened in the
// background paints nothing, so it hydrates at once.)
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(hydrate, 0))
else hydrate()
