// Prints a one-time link that claims the site while no one of the team can sign in: whoever
// opens it within the hour gives the first owner's name, address and password.
//
//   npm run claim                          (in the site's folder)
//   docker exec <container> npm run claim  (in the container)
//
// Each run makes a fresh link and the one before stops working. The link starts with PUBLIC_URL,
// or http://localhost and the site's port.
import { existsSync } from 'node:fs'
import { openDatabase } from '#app/data/database.server'
import { isBusy } from '#app/data/writes.server'
import { createOpenInbox } from '#app/owner/open-inbox.server'
import { createClaimLinks } from '#app/team/claim-link.server'
import { readConfig } from '#server/config'

const config = readConfig()
if (!existsSync(config.databasePath)) {
  console.error(`claim: there is no database at ${config.databasePath}: start the site first (or set DATABASE_PATH).`)
  process.exit(1)
}

/** A fresh link's token, or null when the site is claimed already. */
function makeLink(): string | null {
  const { db, sqlite, close } = openDatabase(config.databasePath, config.migrationsFolder)
  try {
    // The site may be writing at this moment: wait for it rather than fail.
    sqlite.pragma('busy_timeout = 5000')
    return createOpenInbox({ db, ended: () => {} }).required ? null : createClaimLinks(db, Date.now).make()
  } finally {
    close()
  }
}

let token: string | null
try {
  token = makeLink()
} catch (error) {
  if (!isBusy(error)) throw error
  console.error('claim: the database is busy (a backup, or another program writing to it): try again in a moment.')
  process.exit(1)
}
if (token === null) {
  console.error('claim: the site is claimed already: its owners sign in (an owner adds people on the Team page).')
  process.exit(1)
}
const origin = process.env.PUBLIC_URL?.replace(/\/+$/, '') || `http://localhost:${config.port}`
console.log(`Open this link within an hour to claim the site as its first owner:\n${origin}/set-up/${token}`)
