// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { nl } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Bezig met versturen…",
  fieldRequired: (d) => select(d.field, { name: "Vul je naam in", email: "Vul je e-mailadres in", message: "Schrijf een bericht", other: "Schrijf een bericht" }),
  fieldNotText: (d) => select(d.field, { name: "De naam moet tekst zijn", email: "Het e-mailadres moet tekst zijn", message: "Het bericht moet tekst zijn", other: "Het bericht moet tekst zijn" }),
  fieldTooLong: (d) => select(d.field, { name: "De naam mag hoogstens " + plural(d.max, 0, nl, { one: strictNumber("nl", d.max, 0, "max") + " teken", other: strictNumber("nl", d.max, 0, "max") + " tekens" }) + " lang zijn", email: "Het e-mailadres mag hoogstens " + plural(d.max, 0, nl, { one: strictNumber("nl", d.max, 0, "max") + " teken", other: strictNumber("nl", d.max, 0, "max") + " tekens" }) + " lang zijn", message: "Het bericht mag hoogstens " + plural(d.max, 0, nl, { one: strictNumber("nl", d.max, 0, "max") + " teken", other: strictNumber("nl", d.max, 0, "max") + " tekens" }) + " lang zijn", other: "Het bericht mag hoogstens " + plural(d.max, 0, nl, { one: strictNumber("nl", d.max, 0, "max") + " teken", other: strictNumber("nl", d.max, 0, "max") + " tekens" }) + " lang zijn" }),
  fieldControlCharacters: (d) => select(d.field, { name: "De naam bevat tekens die niet zijn toegestaan", email: "Het e-mailadres bevat tekens die niet zijn toegestaan", message: "Het bericht bevat tekens die niet zijn toegestaan", other: "Het bericht bevat tekens die niet zijn toegestaan" }),
  invalidEmail: () => "Dit e-mailadres klopt niet",
  fallbackSuccess: () => "Formulier verstuurd!"
}
export default messages
