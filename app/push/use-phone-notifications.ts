import { useCallback, useEffect, useState } from 'react'
import { inboxPath, type OpenLeadMessage } from './push-message'
import { textOf } from '#app/outside'

/** Where this browser stands: before it is known, what it cannot, off, on, or blocked by the owner's settings. */
export type PhoneState = 'unknown' | 'unsupported' | 'off' | 'working' | 'on' | 'blocked'

function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && typeof Notification !== 'undefined'
}

function keyBytes(base64url: string): Uint8Array {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(text, (character) => character.charCodeAt(0))
}

function subscribedWith(subscription: PushSubscription, publicKey: string): boolean {
  const used = subscription.options.applicationServerKey
  // A browser that does not say which key it used is taken at its word.
  if (!used) return true
  const mine = keyBytes(publicKey)
  const theirs = new Uint8Array(used)
  return mine.length === theirs.length && mine.every((byte, index) => byte === theirs[index])
}

async function tellServer(method: 'POST' | 'DELETE', body: unknown): Promise<string | null> {
  const response = await fetch('/api/push-subscriptions', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.ok || (method === 'DELETE' && response.status === 404)) return null
  const answer: unknown = await response.json().catch(() => null)
  return textOf(answer, 'error') ?? 'The inbox could not be reached. Try again.'
}

/** A tapped notification's card: shown in this tab when it is here, else the inbox is opened at it. */
function showCard(path: string) {
  const target = new URL(path, window.location.origin)
  if (target.pathname !== inboxPath) return
  const card = target.hash ? document.getElementById(target.hash.slice(1)) : null
  if (card) {
    window.location.hash = target.hash
    card.scrollIntoView({ block: 'start' })
  } else if (`${target.pathname}${target.search}` === `${window.location.pathname}${window.location.search}`) {
    // Not here yet (the live link was asleep): the same address with its hash, loaded afresh.
    window.location.hash = target.hash
    window.location.reload()
  } else {
    window.location.assign(target.href)
  }
}

/**
 * Web Push on this phone: registers the inbox's service worker whenever the signed-in owner opens
 * the inbox, says whether this browser is notified, and turns it on (asking permission on the
 * owner's tap) or off. A subscription the server forgot, or made with an older key, is put right.
 */
export function usePhoneNotifications(publicKey: string | null) {
  const [state, setState] = useState<PhoneState>('unknown')
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (!publicKey) return
    if (!supported()) return setState('unsupported')
    let gone = false
    void (async () => {
      try {
        const registration = await navigator.serviceWorker.register('/service-worker.js', { scope: inboxPath })
        const subscription = await registration.pushManager.getSubscription()
        if (gone) return
        if (Notification.permission === 'denied') return setState('blocked')
        if (!subscription) return setState('off')
        if (!subscribedWith(subscription, publicKey)) {
          await tellServer('DELETE', { endpoint: subscription.endpoint })
          await subscription.unsubscribe()
          return setState('off')
        }
        const refused = await tellServer('POST', subscription.toJSON())
        if (gone) return
        setProblem(refused)
        setState(refused ? 'off' : 'on')
      } catch {
        if (gone) return
        setProblem('Notifications could not be set up just now. Reload the page to try again.')
        setState('unknown')
      }
    })()
    return () => {
      gone = true
    }
  }, [publicKey])

  useEffect(() => {
    if (!publicKey || !('serviceWorker' in navigator)) return
    const opened = (event: MessageEvent) => {
      const message = event.data as OpenLeadMessage | null
      if (message?.type === 'OPEN_LEAD' && typeof message.path === 'string') showCard(message.path)
    }
    navigator.serviceWorker.addEventListener('message', opened)
    navigator.serviceWorker.startMessages()
    return () => navigator.serviceWorker.removeEventListener('message', opened)
  }, [publicKey])

  const turnOn = useCallback(async () => {
    if (!publicKey) return
    setProblem(null)
    setState('working')
    try {
      const permission = await Notification.requestPermission()
      // Dismissed, the prompt can be asked again; only a refusal is 'blocked'.
      if (permission !== 'granted') return setState(permission === 'denied' ? 'blocked' : 'off')
      const registration = await navigator.serviceWorker.ready
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: publicKey,
      })
      const refused = await tellServer('POST', subscription.toJSON())
      if (refused) await subscription.unsubscribe()
      setProblem(refused)
      setState(refused ? 'off' : 'on')
    } catch {
      setProblem('This browser could not subscribe to notifications. Try again, or from the installed app.')
      setState('off')
    }
  }, [publicKey])

  const turnOff = useCallback(async () => {
    setProblem(null)
    setState('working')
    try {
      const registration = await navigator.serviceWorker.ready
      const subscription = await registration.pushManager.getSubscription()
      if (subscription) {
        const refused = await tellServer('DELETE', { endpoint: subscription.endpoint })
        if (refused) {
          setProblem(refused)
          return setState('on')
        }
        await subscription.unsubscribe()
      }
      setState('off')
    } catch {
      setProblem('The inbox could not be reached. Try again.')
      setState('on')
    }
  }, [])

  return { state, problem, turnOn, turnOff }
}
