/** The owner's inbox holds customers' names and emails: no shared or browser cache may keep a copy. */
export const ownerDataHeaders = { 'Cache-Control': 'no-store' }
