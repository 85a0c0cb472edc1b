// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { fr } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Envoi en cours…",
  fieldRequired: (d) => select(d.field, { name: "Le nom est obligatoire", email: "L’adresse e-mail est obligatoire", message: "Le message est obligatoire", other: "Le message est obligatoire" }),
  fieldNotText: (d) => select(d.field, { name: "Le nom doit être du texte", email: "L’adresse e-mail doit être du texte", message: "Le message doit être du texte", other: "Le message doit être du texte" }),
  fieldTooLong: (d) => select(d.field, { name: "Le nom ne peut dépasser " + plural(d.max, 0, fr, { one: strictNumber("fr", d.max, 0, "max") + " caractère", other: strictNumber("fr", d.max, 0, "max") + " caractères" }), email: "L’adresse e-mail ne peut dépasser " + plural(d.max, 0, fr, { one: strictNumber("fr", d.max, 0, "max") + " caractère", other: strictNumber("fr", d.max, 0, "max") + " caractères" }), message: "Le message ne peut dépasser " + plural(d.max, 0, fr, { one: strictNumber("fr", d.max, 0, "max") + " caractère", other: strictNumber("fr", d.max, 0, "max") + " caractères" }), other: "Le message ne peut dépasser " + plural(d.max, 0, fr, { one: strictNumber("fr", d.max, 0, "max") + " caractère", other: strictNumber("fr", d.max, 0, "max") + " caractères" }) }),
  fieldControlCharacters: (d) => select(d.field, { name: "Le nom contient des caractères non autorisés", email: "L’adresse e-mail contient des caractères non autorisés", message: "Le message contient des caractères non autorisés", other: "Le message contient des caractères non autorisés" }),
  invalidEmail: () => "Cette adresse e-mail n’est pas valide",
  fallbackSuccess: () => "Formulaire bien envoyé !"
}
export default messages
