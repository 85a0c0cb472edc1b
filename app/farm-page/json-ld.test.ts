import { describe, expect, it } from 'vitest'
import { jsonInHtml } from './json-ld'

describe('JSON in a script element', () => {
  it('cannot end the element or open a comment, and reads back the same', () => {
    const data = { address: '</script><script>alert(1)</script><!-- & \u2028' }
    const written = jsonInHtml(data)
    expect(written).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(written)).toEqual(data)
  })
})
