import { createContext, useContext } from 'react'

const NonceContext = createContext('')

/** Carries the response's CSP nonce to the script tags; browsers hide it after load, so it is '' there. */
export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
