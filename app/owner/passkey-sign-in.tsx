import { useEffect, useState } from 'react'

/** Posts JSON to one of the site's passkey doors and reads its JSON answer. */
export async function passkeyCall<T>(
  path: string,
  body?: unknown,
): Promise<{ ok: boolean; data: T & { error?: string } }> {
  const answer = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  })
  return {
    ok: answer.ok,
    data: (await answer.json().catch(() => ({ error: 'The site did not answer.' }))) as T & { error?: string },
  }
}

/**
 * 'Sign in with a passkey': the browser offers the passkeys it keeps for this site, nothing typed.
 * Only with JavaScript (WebAuthn is a script API); without, the page says to use the password.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const [able, setAble] = useState<boolean | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => setAble(typeof window.PublicKeyCredential === 'function'), [])

  async function signIn() {
    setBusy(true)
    setProblem(null)
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser')
      const options = await passkeyCall<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(
        '/api/sign-in/passkey',
      )
      if (!options.ok) throw new Error(options.data.error)
      const response = await startAuthentication({ optionsJSON: options.data.options })
      const done = await passkeyCall<{ redirectTo: string }>('/api/sign-in/passkey', { response, redirectTo })
      if (!done.ok) throw new Error(done.data.error)
      window.location.assign(done.data.redirectTo)
    } catch (error) {
      setProblem(
        error instanceof Error && error.name !== 'NotAllowedError' && error.message
          ? error.message
          : 'No passkey was used. Try again, or sign in with your password.',
      )
      setBusy(false)
    }
  }

  return (
    <div className="mt-6 border-t border-stone-200 pt-6">
      {able === false || able === null ? (
        <p className="text-sm text-stone-600">
          {able === false
            ? 'This browser cannot use passkeys: sign in with your password.'
            : 'With JavaScript on, you can sign in with a passkey instead.'}
        </p>
      ) : (
        <>
          <button
            type="button"
            onClick={() => void signIn()}
            disabled={busy}
            className="w-full rounded-xl px-6 py-3 font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-70"
          >
            Use a passkey
          </button>
          {problem ? (
            <p role="alert" className="mt-1.5 text-sm font-medium text-red-700">
              {problem}
            </p>
          ) : null}
        </>
      )}
    </div>
  )
}
