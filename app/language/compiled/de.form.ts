// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { de } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Wird gesendet …",
  fieldRequired: (d) => select(d.field, { name: "Bitte geben Sie Ihren Namen an", email: "Bitte geben Sie Ihre E-Mail-Adresse an", message: "Bitte schreiben Sie eine Nachricht", other: "Bitte schreiben Sie eine Nachricht" }),
  fieldNotText: (d) => select(d.field, { name: "Der Name muss Text sein", email: "Die E-Mail-Adresse muss Text sein", message: "Die Nachricht muss Text sein", other: "Die Nachricht muss Text sein" }),
  fieldTooLong: (d) => select(d.field, { name: "Der Name darf höchstens " + plural(d.max, 0, de, { one: strictNumber("de", d.max, 0, "max") + " Zeichen", other: strictNumber("de", d.max, 0, "max") + " Zeichen" }) + " lang sein", email: "Die E-Mail-Adresse darf höchstens " + plural(d.max, 0, de, { one: strictNumber("de", d.max, 0, "max") + " Zeichen", other: strictNumber("de", d.max, 0, "max") + " Zeichen" }) + " lang sein", message: "Die Nachricht darf höchstens " + plural(d.max, 0, de, { one: strictNumber("de", d.max, 0, "max") + " Zeichen", other: strictNumber("de", d.max, 0, "max") + " Zeichen" }) + " lang sein", other: "Die Nachricht darf höchstens " + plural(d.max, 0, de, { one: strictNumber("de", d.max, 0, "max") + " Zeichen", other: strictNumber("de", d.max, 0, "max") + " Zeichen" }) + " lang sein" }),
  fieldControlCharacters: (d) => select(d.field, { name: "Der Name enthält unzulässige Zeichen", email: "Die E-Mail-Adresse enthält unzulässige Zeichen", message: "Die Nachricht enthält unzulässige Zeichen", other: "Die Nachricht enthält unzulässige Zeichen" }),
  invalidEmail: () => "Diese E-Mail-Adresse stimmt nicht",
  fallbackSuccess: () => "Formular gesendet!"
}
export default messages
