import { existsSync } from 'node:fs'
import { hostname } from 'node:os'

import type { ClaimCommand } from './claim-note'

/**
 * The command that prints a link to claim the site, as it is typed where the site runs: in a
 * container (Docker's /.dockerenv, Podman's /run/.containerenv) through `docker exec`, named by
 * the container's own ID, which is its host name unless `--hostname` changed it.
 */
export function claimCommand(): ClaimCommand {
  const inContainer = existsSync('/.dockerenv') || existsSync('/run/.containerenv')
  if (!inContainer) return { command: 'npm run claim', inContainer }
  const id = hostname()
  return { command: `docker exec ${/^[0-9a-f]{12}$/.test(id) ? id : '<container name>'} npm run claim`, inContainer }
}
