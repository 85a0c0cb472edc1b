/** The largest mail the site reads; a bigger one is left in the mailbox for the owner. */
export const mostBytesPerMail = 1024 * 1024
/** Characters of an answer kept: as much as the owner may write in a reply. */
export const mostAnswerCharacters = 20_000
