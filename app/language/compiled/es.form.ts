// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { es } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Enviando…",
  fieldRequired: (d) => select(d.field, { name: "Escribe tu nombre", email: "Escribe tu correo electrónico", message: "Escribe un mensaje", other: "Escribe un mensaje" }),
  fieldNotText: (d) => select(d.field, { name: "El nombre debe ser texto", email: "El correo debe ser texto", message: "El mensaje debe ser texto", other: "El mensaje debe ser texto" }),
  fieldTooLong: (d) => select(d.field, { name: "El nombre admite como mucho " + plural(d.max, 0, es, { one: strictNumber("es", d.max, 0, "max") + " carácter", other: strictNumber("es", d.max, 0, "max") + " caracteres" }), email: "El correo admite como mucho " + plural(d.max, 0, es, { one: strictNumber("es", d.max, 0, "max") + " carácter", other: strictNumber("es", d.max, 0, "max") + " caracteres" }), message: "El mensaje admite como mucho " + plural(d.max, 0, es, { one: strictNumber("es", d.max, 0, "max") + " carácter", other: strictNumber("es", d.max, 0, "max") + " caracteres" }), other: "El mensaje admite como mucho " + plural(d.max, 0, es, { one: strictNumber("es", d.max, 0, "max") + " carácter", other: strictNumber("es", d.max, 0, "max") + " caracteres" }) }),
  fieldControlCharacters: (d) => select(d.field, { name: "El nombre lleva caracteres no permitidos", email: "El correo lleva caracteres no permitidos", message: "El mensaje lleva caracteres no permitidos", other: "El mensaje lleva caracteres no permitidos" }),
  invalidEmail: () => "Ese correo electrónico no es válido",
  fallbackSuccess: () => "¡Formulario enviado!"
}
export default messages
