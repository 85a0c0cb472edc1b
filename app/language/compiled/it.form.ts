// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { it } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Invio in corso…",
  fieldRequired: (d) => select(d.field, { name: "Scrivi il tuo nome", email: "Scrivi il tuo indirizzo email", message: "Scrivi un messaggio", other: "Scrivi un messaggio" }),
  fieldNotText: (d) => select(d.field, { name: "Il nome deve essere un testo", email: "L’email deve essere un testo", message: "Il messaggio deve essere un testo", other: "Il messaggio deve essere un testo" }),
  fieldTooLong: (d) => select(d.field, { name: "Il nome può avere al massimo " + plural(d.max, 0, it, { one: strictNumber("it", d.max, 0, "max") + " carattere", other: strictNumber("it", d.max, 0, "max") + " caratteri" }), email: "L’email può avere al massimo " + plural(d.max, 0, it, { one: strictNumber("it", d.max, 0, "max") + " carattere", other: strictNumber("it", d.max, 0, "max") + " caratteri" }), message: "Il messaggio può avere al massimo " + plural(d.max, 0, it, { one: strictNumber("it", d.max, 0, "max") + " carattere", other: strictNumber("it", d.max, 0, "max") + " caratteri" }), other: "Il messaggio può avere al massimo " + plural(d.max, 0, it, { one: strictNumber("it", d.max, 0, "max") + " carattere", other: strictNumber("it", d.max, 0, "max") + " caratteri" }) }),
  fieldControlCharacters: (d) => select(d.field, { name: "Il nome contiene caratteri non ammessi", email: "L’email contiene caratteri non ammessi", message: "Il messaggio contiene caratteri non ammessi", other: "Il messaggio contiene caratteri non ammessi" }),
  invalidEmail: () => "Questo indirizzo email non è valido",
  fallbackSuccess: () => "Modulo inviato!"
}
export default messages
