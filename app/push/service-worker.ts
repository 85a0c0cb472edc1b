/// <reference lib="webworker" />
// The inbox's service worker, registered only on /farm-sales's scope by the signed-in owner: it
// shows the pushes of new leads, opens a lead's card when one is tapped, and answers with a page
// saying so when the phone has no signal. Compiled by scripts/build-server.js, served at /service-worker.js.
import { inboxPath as inbox, notificationFor, readPushMessage, type OpenLeadMessage } from './push-message'
import { propertyOf } from '#app/outside'

declare const self: ServiceWorkerGlobalScope

self.addEventListener('install', () => void self.skipWaiting())

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // The page's request starts while the worker wakes, rather than after.
      await self.registration.navigationPreload?.enable()
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('push', (event) => {
  const message = event.data ? readPushMessage(event.data.text()) : null
  const shown = message
    ? notificationFor(message)
    : { title: 'Something new in the inbox', body: 'Open the inbox to see it.', tag: 'inbox' }
  event.waitUntil(
    self.registration.showNotification(shown.title, {
      body: shown.body,
      tag: shown.tag,
      icon: '/icons/icon-192.png',
      data: { url: message?.url ?? inbox },
    }),
  )
})

/** The card a notification names, on this site only: a payload's address could name any. */
function cardPath(url: unknown): string {
  try {
    const target = new URL(String(url), self.location.origin)
    return target.pathname === inbox ? `${target.pathname}${target.hash}` : inbox
  } catch {
    return inbox
  }
}

async function openCard(path: string) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const open = windows.find((client) => new URL(client.url).pathname === inbox)
  if (open) {
    open.postMessage({ type: 'OPEN_LEAD', path } satisfies OpenLeadMessage)
    await open.focus().catch(() => undefined)
    return
  }
  await self.clients.openWindow(path)
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(openCard(cardPath(propertyOf(event.notification.data, 'url'))))
})

const offlinePage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>No connection · Farm Sales Data</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:0;background:#fffbeb;color:#292524}main{max-width:32rem;margin:0 auto;padding:3rem 1.25rem}
h1{font-family:Georgia,serif;color:#14532d;font-size:2rem;margin:0 0 .75rem}a{display:inline-block;margin-top:1.25rem;padding:.6rem 1.4rem;border-radius:999px;background:#166534;color:#fff;font-weight:600;text-decoration:none}</style>
</head><body><main><h1>No connection</h1>
<p>The inbox could not be reached: this phone may have no signal just now, or the site may be down. It loads again by itself once the phone is back online.</p>
<a href="">Try again</a></main>
<script>addEventListener('online',()=>location.reload())</script></body></html>`

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return
  event.respondWith(
    (async () => {
      try {
        const preloaded = (await event.preloadResponse) as Response | undefined
        return preloaded ?? (await fetch(event.request))
      } catch {
        return new Response(offlinePage, {
          status: 503,
          headers: {
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
            'Cache-Control': 'no-store',
          },
        })
      }
    })(),
  )
})
