/** A form sends each line break as CRLF: counted, kept and mailed as one character. */
export const oneLineBreak = (text: string) => text.replace(/\r\n?/g, '\n')

// Line breaks and tabs are writing; other control characters and half an emoji are not.
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// Spaces and invisible format characters (a zero-width space) alone are no words.
const nothingVisible = /^[\s\p{Cf}]*$/u

/**
 * Why a text the owner wrote for visitors cannot be kept, or null when it can: it has words,
 * no control characters, and at most `most` characters (an emoji is one). `what` names it in the
 * answer, e.g. "a reply".
 */
export function writingError(text: string, what: string, most: number): string | null {
  if (nothingVisible.test(text)) return `Write ${what} first.`
  if (controlCharacters.test(text) || loneSurrogate.test(text)) {
    return `${capitalised(what)} can hold letters, numbers, signs and line breaks, not control characters.`
  }
  const length = [...text].length
  if (length > most) {
    return `${capitalised(what)} can be at most ${most.toLocaleString('en-GB')} characters; this one has ${length.toLocaleString('en-GB')}.`
  }
  return null
}

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`
