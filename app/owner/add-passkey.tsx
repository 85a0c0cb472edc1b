import { useRevalidator } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { passkeyCall } from './passkey-sign-in'

/** 'Add a passkey': the browser makes one for this site and the person signed in; it is listed once kept. */
export function AddPasskey() {
  const [able, setAble] = useState<boolean | null>(null)
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null)
  const [busy, setBusy] = useState(false)
  const [password, setPassword] = useState('')
  const revalidator = useRevalidator()
  useEffect(() => setAble(typeof window.PublicKeyCredential === 'function'), [])

  async function add() {
    setBusy(true)
    setSaid(null)
    try {
      const { startRegistration } = await import('@simplewebauthn/browser')
      const options = await passkeyCall<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(
        '/api/passkeys',
        { password },
      )
      if (!options.ok) throw new Error(options.data.error)
      const response = await startRegistration({ optionsJSON: options.data.options })
      const kept = await passkeyCall<object>('/api/passkeys', { response })
      if (!kept.ok) throw new Error(kept.data.error)
      setSaid({ text: 'Passkey added. Next time, sign in with it.', problem: false })
      setPassword('')
      revalidator.revalidate()
    } catch (error) {
      setSaid({
        text:
          error instanceof Error && error.name !== 'NotAllowedError' && error.message
            ? error.message
            : 'No passkey was made.',
        problem: true,
      })
    } finally {
      setBusy(false)
    }
  }

  if (!able) {
    return (
      <p className="mt-3 text-sm text-stone-600">
        {able === false ? 'This browser cannot make passkeys.' : 'With JavaScript on, you can add a passkey here.'}
      </p>
    )
  }
  return (
    <div className="mt-3">
      <label htmlFor="passkey-password" className="mb-1.5 block text-sm font-semibold text-stone-800">
        Your password, to add a passkey
      </label>
      <input
        id="passkey-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        className="mb-3 block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none"
      />
      <button
        type="button"
        onClick={() => void add()}
        disabled={busy}
        className="rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60"
      >
        Add a passkey
      </button>
      <p
        role={said?.problem ? 'alert' : 'status'}
        className={`mt-2 text-sm ${said?.problem ? 'font-medium text-red-800' : 'text-stone-700'}`}
      >
        {said?.text}
      </p>
    </div>
  )
}
