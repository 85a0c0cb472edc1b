import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '#tests/support/server'

const assets = join(projectRoot, 'public/build/_assets')
const shippedCss = () =>
  readdirSync(assets)
    .filter((name) => /^tailwind-.*\.css$/.test(name))
    .map((name) => readFileSync(join(assets, name), 'utf8'))
    .join('\n')

describe('the CSS every page ships', () => {
  it('is made from the app’s own files: a string in a test never becomes a rule', () => {
    const css = shippedCss()
    // A class the app uses (a positive control), then strings only tests hold.
    expect(css).toContain('.inline-block')
    expect(css).not.toContain('javascript')
    expect(css).not.toContain('alert')
  })
})
