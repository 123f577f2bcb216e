/**
 * A key's partner name: how operators, banners and access logs name whoever holds the key. It is
 * 1 to MAX_PARTNER_NAME_CHARS printable characters (counted in code points), neither starting nor
 * ending with white space, and holds no key text. `issueKey` applies it, so every key issued (by
 * `npm run keys`, the load test) has such a name. Records already stored or written in a keys file
 * by hand are read as they are: the tools print every name escaped (lib/cli/terminal-text.ts).
 */
import { UNSAFE_TO_SHOW_CHARACTER } from "../observability/caller-text.js";
import { redactApiKeys } from "./api-key.js";

export const MAX_PARTNER_NAME_CHARS = 100;

export const PARTNER_NAME_RULE = `a partner name is 1 to ${MAX_PARTNER_NAME_CHARS} printable characters (no control, format or bidirectional characters), not starting or ending with white space, and holds no key text`;

/** `U+202E`: a character named without showing it. */
function codePointName(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What is wrong with `name` as a partner name, never quoting it; undefined when it is one. */
export function partnerNameProblem(name: string): string | undefined {
  const characters = [...name];
  if (characters.length === 0) return "is empty";
  if (characters.length > MAX_PARTNER_NAME_CHARS) return `is ${characters.length} characters long`;
  const at = characters.findIndex((character) => UNSAFE_TO_SHOW_CHARACTER.test(character));
  const unprintable = characters[at];
  if (unprintable !== undefined)
    return `holds ${codePointName(unprintable)}, which is not printable, at character ${at + 1}`;
  if (name.trim() !== name) return "starts or ends with white space";
  if (redactApiKeys(name) !== name) return "holds text shaped like an API key";
  return undefined;
}

/** A partner name refused: the message says what is wrong and the rule, without the name. */
export class PartnerNameError extends Error {
  override readonly name = "PartnerNameError";
}

/** `name` when it is a partner name, else PartnerNameError. */
export function requirePartnerName(name: string): string {
  const problem = partnerNameProblem(name);
  if (problem !== undefined) throw new PartnerNameError(`the partner name ${problem}: ${PARTNER_NAME_RULE}`);
  return name;
}
