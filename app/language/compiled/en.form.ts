// Made by app/language/compile-catalogs.ts from the catalogs: change those and run `npm run messages`.
import type { FormMessages } from './messages'
import { plural, select, strictNumber } from '../runtime';
import { en } from "@messageformat/runtime/lib/cardinals";
const messages: FormMessages = {
  submitting: () => "Submitting...",
  fieldRequired: (d) => select(d.field, { name: "Name", email: "Email", message: "Message", other: "Message" }) + " is required",
  fieldNotText: (d) => select(d.field, { name: "Name", email: "Email", message: "Message", other: "Message" }) + " must be text",
  fieldTooLong: (d) => select(d.field, { name: "Name", email: "Email", message: "Message", other: "Message" }) + " must be at most " + plural(d.max, 0, en, { one: strictNumber("en", d.max, 0, "max") + " character", other: strictNumber("en", d.max, 0, "max") + " characters" }),
  fieldControlCharacters: (d) => select(d.field, { name: "Name", email: "Email", message: "Message", other: "Message" }) + " must not contain control characters",
  invalidEmail: () => "Invalid email format",
  fallbackSuccess: () => "Form submitted successfully!"
}
export default messages
