import type { AppLoadContext } from '@remix-run/node'
import { knownTimeZone } from './time-zone'

const chosenAlready = {
  kind: 'request',
  status: 409,
  error: 'The farm’s time zone is chosen already.',
} as const

/**
 * The farm's clock from a first sign-in: the browser's own zone (browser-time-zone.tsx),
 * kept only while the farm has none (neither the environment nor the settings page chose one),
 * and only a zone this machine knows. Asked again in turn with every other change, so of two
 * first sign-ins at once the first one's stands; a sign-in never waits on more than that.
 */
export async function takeBrowserTimeZone(
  context: Pick<AppLoadContext, 'settings' | 'log'>,
  sent: string,
): Promise<void> {
  if (!sent || context.settings.config.farmTimeZone !== null) return
  const zone = knownTimeZone(sent)
  if (!zone) return
  const noneYet = async () => (context.settings.config.farmTimeZone === null ? null : chosenAlready)
  const kept = await context.settings.change({ FARM_TIME_ZONE: zone }, noneYet)
  if (kept.ok) context.log.info({ timeZone: zone }, 'the farm’s time zone is the browser’s of the first sign-in')
}
