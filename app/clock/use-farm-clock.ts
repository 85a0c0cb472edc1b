import { useRouteLoaderData } from '@remix-run/react'
import { utc } from './farm-clock'

/** The farm's clock, as the root's loader hands it to every page: the server's page and the browser's read it alike. */
export function useFarmClock(): string {
  return useRouteLoaderData<{ farm: { timeZone: string } }>('root')?.farm.timeZone ?? utc
}
