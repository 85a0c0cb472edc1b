import { plural as anyPlural, select as anySelect, strictNumber } from '@messageformat/runtime'

// The compiled catalogs' helpers, typed as they are used there: every case of a message is text.
// Only what they call, by name: a namespace import would bring the whole runtime to the browser.
export const select = anySelect as (value: string, cases: Record<string, string>) => string
export const plural = anyPlural as (
  value: number,
  offset: number,
  rules: (value: number, isOrdinal?: boolean) => string,
  cases: Record<string, string>,
  isOrdinal?: boolean,
) => string
export { strictNumber }
