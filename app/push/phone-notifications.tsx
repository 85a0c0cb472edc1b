import { usePhoneNotifications } from './use-phone-notifications'

const button = 'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50'

/**
 * 'Notify me on this phone': the owner's tap asks the browser's permission and subscribes this
 * phone to a push on each lead; then it says so, with 'Turn off'.
 */
export function PhoneNotifications({ publicKey }: { publicKey: string }) {
  const phone = usePhoneNotifications(publicKey)
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      {phone.state === 'off' ? (
        <button type="button" onClick={() => void phone.turnOn()} className={button}>
          Notify me on this phone
        </button>
      ) : phone.state === 'working' ? (
        <button type="button" disabled className={button}>
          One moment…
        </button>
      ) : phone.state === 'on' ? (
        <>
          <p className="text-stone-700">Notifications on for this phone</p>
          <button type="button" onClick={() => void phone.turnOff()} className={button}>
            Turn off
          </button>
        </>
      ) : phone.state === 'blocked' ? (
        <p className="text-stone-700">Notifications are blocked for this site: allow them in the browser’s settings.</p>
      ) : phone.state === 'unsupported' ? (
        <p className="text-stone-700">
          This browser cannot be notified. On an iPhone, add the inbox to the home screen first.
        </p>
      ) : null}
      {phone.problem ? (
        <p role="alert" className="text-red-800">
          {phone.problem}
        </p>
      ) : null}
    </div>
  )
}
