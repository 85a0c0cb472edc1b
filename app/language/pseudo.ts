const accented: Record<string, string> = {
  a: 'å',
  e: 'é',
  i: 'î',
  o: 'ö',
  u: 'û',
  c: 'ç',
  n: 'ñ',
  s: 'š',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  E: 'É',
  I: 'Î',
  O: 'Ö',
  U: 'Û',
  C: 'Ç',
  N: 'Ñ',
  S: 'Š',
  Y: 'Ý',
  Z: 'Ž',
}

/** A message about 40 % longer and accented, its words still readable and its `{product}` kept: where a page cuts or overflows text, this shows it first. */
export function pseudoText(text: string): string {
  const shown = text.replace(/\{\w+\}|[a-zA-Z]/g, (found) => accented[found] ?? found)
  const padding = Math.ceil(text.length * 0.4)
  return `[${shown} ${'·ẋ'.repeat(Math.ceil(padding / 2)).slice(0, padding)}]`
}

/** A part of English's messages, each made pseudo: English comes as every language's catalog does (its own chunk, not one more). */
export function pseudoOf<Part extends object>(english: Part): Part {
  const made = Object.fromEntries(
    Object.entries(english).map(([key, message]) => [
      key,
      (values?: Record<string, string | number>) => pseudoText((message as (values?: object) => string)(values)),
    ]),
  )
  return made as Part
}
