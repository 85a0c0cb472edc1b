/** npm vnu-jar: the path of the Nu HTML Checker's jar. */
declare module 'vnu-jar' {
  const jar: string
  export default jar
}
