import type { Log } from '#app/log'

/** A log that writes nothing, for a part tested on its own. */
export const quietLog: Log = { info() {}, warn() {}, error() {}, child: () => quietLog }
