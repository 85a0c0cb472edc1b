import { useCallback, useEffect, useRef, useState } from 'react'
import type { Submission } from '#app/leads/lead'

/** The site's icon with an amber dot: something new arrived while the tab was in the background. */
const iconWithDot = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#166534"/><path d="M16 25v-9" stroke="#fef3c7" stroke-width="2.2" stroke-linecap="round"/><path d="M16 17c0-4.5 3-7.5 8-7.5 0 4.5-3 7.5-8 7.5Z" fill="#bbf7d0"/><circle cx="25" cy="7" r="7" fill="#f59e0b" stroke="#fff" stroke-width="2"/></svg>',
)}`

const wordsInANotification = 12

function firstWords(message: string): string {
  const words = message.trim().split(/\s+/)
  return words.length > wordsInANotification ? `${words.slice(0, wordsInANotification).join(' ')}…` : words.join(' ')
}

export type NotifyState = 'unsupported' | 'ask' | 'on' | 'blocked'

function notifyState(): NotifyState {
  if (typeof Notification === 'undefined') return 'unsupported'
  if (Notification.permission === 'granted') return 'on'
  return Notification.permission === 'denied' ? 'blocked' : 'ask'
}

/**
 * While the inbox is in a background tab, each new lead adds to a count in the title and puts
 * a dot on the icon, and (once the owner allowed it) shows a notification; all clears when the
 * tab is seen again.
 */
export function useNewLeadAlert() {
  const unseen = useRef(0)
  const plainTitle = useRef('')
  const [notify, setNotify] = useState<NotifyState>('unsupported')

  const icon = () => document.querySelector<HTMLLinkElement>('link[rel="icon"]')

  useEffect(() => {
    setNotify(notifyState())
    const plainIcon = icon()?.getAttribute('href') ?? '/favicon.svg'
    const reset = () => {
      if (unseen.current === 0) return
      unseen.current = 0
      document.title = plainTitle.current
      icon()?.setAttribute('href', plainIcon)
    }
    const seen = () => {
      if (document.visibilityState === 'visible') reset()
    }
    document.addEventListener('visibilitychange', seen)
    return () => {
      document.removeEventListener('visibilitychange', seen)
      reset()
    }
  }, [])

  const arrived = useCallback((submission: Submission) => {
    if (document.visibilityState === 'visible' || submission.spam) return
    if (unseen.current === 0) plainTitle.current = document.title
    unseen.current += 1
    document.title = `(${unseen.current}) ${plainTitle.current}`
    icon()?.setAttribute('href', iconWithDot)
    if (notifyState() === 'on') {
      new Notification(`New lead from ${submission.name}`, {
        body: firstWords(submission.message),
        tag: `submission-${submission.id}`,
      })
    }
  }, [])

  /** Asks for permission only when the owner clicks. */
  const askToNotify = useCallback(async () => {
    if (typeof Notification === 'undefined') return
    await Notification.requestPermission()
    setNotify(notifyState())
  }, [])

  return { arrived, notify, askToNotify }
}
