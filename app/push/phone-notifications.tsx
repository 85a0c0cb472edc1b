import { useEffect, useRef } from 'react'
import { usePhoneNotifications, type PhoneState } from './use-phone-notifications'

const button = 'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

const said: Partial<Record<PhoneState, string>> = {
  on: 'Notifications on for this phone',
  blocked: 'Notifications are blocked for this site: allow them in the browser’s settings.',
  unsupported: 'This browser cannot be notified. On an iPhone, add the inbox to the home screen first.',
}

/**
 * 'Notify me on this phone': the owner's tap asks the browser's permission and subscribes this
 * phone to a push on each lead; then it says so, with 'Turn off'. What it says is announced, and
 * the focus moves to the button that undoes it.
 */
export function PhoneNotifications({ publicKey }: { publicKey: string }) {
  const phone = usePhoneNotifications(publicKey)
  const onOff = useRef<HTMLButtonElement>(null)
  const tapped = useRef(false)
  useEffect(() => {
    if (tapped.current && (phone.state === 'on' || phone.state === 'off')) onOff.current?.focus()
  }, [phone.state])
  const tap = (action: () => Promise<void>) => () => {
    tapped.current = true
    void action()
  }
  return (
    <div className="flex flex-wrap items-center gap-y-1 text-sm">
      <p role="status" className="mr-3 text-stone-700 empty:mr-0">
        {said[phone.state] ?? ''}
      </p>
      {phone.state === 'off' || phone.state === 'on' || phone.state === 'working' ? (
        <button
          ref={onOff}
          type="button"
          aria-disabled={phone.state === 'working'}
          onClick={phone.state === 'working' ? undefined : tap(phone.state === 'on' ? phone.turnOff : phone.turnOn)}
          className={`${button} aria-disabled:opacity-60`}
        >
          {phone.state === 'working' ? 'One moment…' : phone.state === 'on' ? 'Turn off' : 'Notify me on this phone'}
        </button>
      ) : null}
      {phone.problem ? (
        <p role="alert" className="ml-3 text-red-800">
          {phone.problem}
        </p>
      ) : null}
    </div>
  )
}
