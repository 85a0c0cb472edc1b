import * as runtime from '@messageformat/runtime'

// The compiled catalogs' helpers, typed as they are used there: every case of a message is text.
export const select = runtime.select as (value: string, cases: Record<string, string>) => string
export const plural = runtime.plural as (
  value: number,
  offset: number,
  rules: (value: number, isOrdinal?: boolean) => string,
  cases: Record<string, string>,
  isOrdinal?: boolean,
) => string
export const { number, strictNumber } = runtime
