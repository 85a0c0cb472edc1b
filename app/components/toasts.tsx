import { useEffect, useState, type ComponentType } from 'react'
import type * as Sonner from 'sonner'
import type { ToasterProps } from 'sonner'

// sonner comes with the first toast (or the first focus on a form that shows one), not with
// every page: most visits never show a toast, and every page's first load is lighter for it.
let sonner: Promise<typeof Sonner> | undefined
export const loadToasts = () => (sonner ??= import('sonner'))

let mountToaster: (() => void) | undefined
let toasterMounted!: () => void
const toasterReady = new Promise<void>((resolve) => (toasterMounted = resolve))

/** Where toasts appear, mounted when the first one is shown. */
export function Toasts() {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null)
  useEffect(() => {
    mountToaster = () => void loadToasts().then((loaded) => setToaster(() => loaded.Toaster))
    return () => {
      mountToaster = undefined
    }
  }, [])
  // The Toaster listens for toasts from its own effect, which runs before this one.
  useEffect(() => {
    if (Toaster) toasterMounted()
  }, [Toaster])
  return Toaster ? <Toaster position="top-center" richColors closeButton /> : null
}

export async function showToast(kind: 'success' | 'error', message: string) {
  const { toast } = await loadToasts()
  mountToaster?.()
  await toasterReady
  toast[kind](message)
}
