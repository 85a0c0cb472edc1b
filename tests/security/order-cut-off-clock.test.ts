// The cut-off is read on the farm's wall clock (decision 046). Where the clock changes at midnight
// (Chile, Cuba, Paraguay, Lebanon), the day that begins at 01:00 still begins when the day before ends.
import { expect, it } from 'vitest'
import { cancelUntil } from '#app/orders/cut-off'

it('with ORDER_CANCEL_HOURS 0, a pick-up on the day Santiago springs forward at midnight may be cancelled until that day begins', () => {
  // 5 September 2026 ends at 04:00 UTC (00:00 −04 is 01:00 −03): not an hour before, at 23:00.
  expect(new Date(cancelUntil('2026-09-06', 0, 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z')
})
