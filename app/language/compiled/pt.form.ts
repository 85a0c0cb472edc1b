// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { pt } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "A enviar…",
  fieldRequired: (d) => select(d.field, { name: "Indique o seu nome", email: "Indique o seu email", message: "Escreva uma mensagem", other: "Escreva uma mensagem" }),
  fieldNotText: (d) => select(d.field, { name: "O nome tem de ser texto", email: "O email tem de ser texto", message: "A mensagem tem de ser texto", other: "A mensagem tem de ser texto" }),
  fieldTooLong: (d) => select(d.field, { name: "O nome pode ter no máximo " + plural(d.max, 0, pt, { one: strictNumber("pt", d.max, 0, "max") + " carácter", other: strictNumber("pt", d.max, 0, "max") + " caracteres" }), email: "O email pode ter no máximo " + plural(d.max, 0, pt, { one: strictNumber("pt", d.max, 0, "max") + " carácter", other: strictNumber("pt", d.max, 0, "max") + " caracteres" }), message: "A mensagem pode ter no máximo " + plural(d.max, 0, pt, { one: strictNumber("pt", d.max, 0, "max") + " carácter", other: strictNumber("pt", d.max, 0, "max") + " caracteres" }), other: "A mensagem pode ter no máximo " + plural(d.max, 0, pt, { one: strictNumber("pt", d.max, 0, "max") + " carácter", other: strictNumber("pt", d.max, 0, "max") + " caracteres" }) }),
  fieldControlCharacters: (d) => select(d.field, { name: "O nome tem caracteres não permitidos", email: "O email tem caracteres não permitidos", message: "A mensagem tem caracteres não permitidos", other: "A mensagem tem caracteres não permitidos" }),
  invalidEmail: () => "Este email não é válido",
  fallbackSuccess: () => "Formulário enviado!"
}
export default messages
