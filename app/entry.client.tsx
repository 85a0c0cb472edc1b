import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { loadMessages } from '#app/language/use-messages'
import { isLanguage } from '#app/language/languages'

// The page's language's messages (a chunk of their own) come before React takes the page over.
const language = document.documentElement.lang
const messages = isLanguage(language) ? loadMessages(language) : Promise.resolve()

let hydrated = false
function hydrate() {
  if (hydrated) return
  hydrated = true
  void messages.then(startHydrating, startHydrating)
}

function startHydrating() {
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
