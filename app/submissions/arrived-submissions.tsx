import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { newestFirst } from './newest-first'
import type { Submission } from './submission'

interface ArrivedSubmissions {
  /** Submissions this browser learned of after a page loaded: sent by the form, or pushed live. */
  arrived: Submission[]
  add(submission: Submission): void
}

const ArrivedSubmissionsContext = createContext<ArrivedSubmissions | null>(null)

export function ArrivedSubmissionsProvider({ children }: { children: ReactNode }) {
  const [arrived, setArrived] = useState<Submission[]>([])
  const add = useCallback((submission: Submission) => setArrived((list) => newestFirst([submission], list)), [])
  const value = useMemo(() => ({ arrived, add }), [arrived, add])
  return <ArrivedSubmissionsContext.Provider value={value}>{children}</ArrivedSubmissionsContext.Provider>
}

export function useArrivedSubmissions(): ArrivedSubmissions {
  const context = useContext(ArrivedSubmissionsContext)
  if (!context) throw new Error('useArrivedSubmissions needs an ArrivedSubmissionsProvider')
  return context
}
