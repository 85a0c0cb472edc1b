/** "Œufs" and "mañana" read as "oeufs" and "manana", so visitors need not type accents to match. */
export function foldAccents(text: string): string {
  return text
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'Oe')
    .replace(/æ/g, 'ae')
    .replace(/Æ/g, 'Ae')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
}
