import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '#app/data/database.server'
import { tempDatabasePath } from '#tests/support/server'
import { createOrderLinks } from './order-links.server'

let database: OpenDatabase
afterEach(() => database?.close())

function links(path = tempDatabasePath()) {
  database = openDatabase(path, join(import.meta.dirname, '../../drizzle'))
  return createOrderLinks({ db: database.db, publicUrl: () => 'https://bramble.example' })
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!

it('reads back the order its own link was signed for, and still after a restart', () => {
  const path = tempDatabasePath()
  const url = links(path).url(12)
  expect(url).toMatch(/^https:\/\/bramble\.example\/order\?token=12\.[A-Za-z0-9_-]{43}$/)
  database.close()
  expect(links(path).orderOf(tokenOf(url))).toBe(12)
})

it('refuses a link turned to another order, another site’s link, and what is not a token', () => {
  const orderLinks = links()
  const token = tokenOf(orderLinks.url(12))
  const signature = token.split('.')[1]!
  expect(orderLinks.orderOf(`13.${signature}`)).toBeNull()
  expect(orderLinks.orderOf(`012.${signature}`)).toBeNull()
  expect(orderLinks.orderOf(token.slice(0, -1))).toBeNull()
  expect(orderLinks.orderOf(`${token} `)).toBeNull()
  expect(orderLinks.orderOf('')).toBeNull()
  expect(links().orderOf(token)).toBeNull()
})
