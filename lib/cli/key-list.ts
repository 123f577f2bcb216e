/**
 * `keys list`: on a terminal, a table with a header and aligned columns; piped (or with `--json`),
 * one JSON object a line, every field an operator may see. Neither ever holds a key.
 */
import { describeKey, type ListedKey } from "../keys/key-admin.js";
import { MAX_PARTNER_NAME_CHARS } from "../keys/partner-name.js";
import type { Throttle } from "../stages.js";
import { type OutputStream, terminalText, writeJson, writeLine } from "./terminal-text.js";

/** How many companies a table row names before it counts the rest. */
const COMPANIES_SHOWN = 3;

function throttleText({ rateLimit, burstLimit, dailyQuota }: Throttle): string {
  return `custom ${rateLimit}/s burst ${burstLimit}${dailyQuota === undefined ? "" : ` ${dailyQuota}/day`}`;
}

function companiesText(companies: readonly string[]): string {
  const shown = companies.slice(0, COMPANIES_SHOWN).join(",");
  const rest = companies.length - COMPANIES_SHOWN;
  return rest > 0 ? `${shown} +${rest} more` : shown;
}

/** A name stored before names were bounded may be longer: the table shows its start. */
function partnerText(partner: string): string {
  const characters = [...partner];
  return characters.length > MAX_PARTNER_NAME_CHARS
    ? `${characters.slice(0, MAX_PARTNER_NAME_CHARS).join("")}…`
    : partner;
}

const COLUMNS: readonly (readonly [string, (key: ListedKey) => string])[] = [
  ["KEY ID", (key) => key.keyId],
  ["PARTNER", (key) => partnerText(key.partner)],
  ["STATUS", (key) => key.status],
  ["TIER", (key) => key.tier ?? throttleText(key.throttle)],
  ["CREATED", (key) => key.createdAt ?? "-"],
  ["OPERATIONS", (key) => key.operations.join(",")],
  ["COMPANIES", (key) => companiesText(key.companies)],
];

/** Width as the terminal counts it, near enough: code points of the escaped text. */
const width = (text: string) => [...text].length;

/** The table's lines: a header, then a row a key, each cell escaped and padded to its column. */
export function keyTable(keys: readonly ListedKey[]): string[] {
  const rows = [
    COLUMNS.map(([header]) => header),
    ...keys.map((key) => COLUMNS.map(([, cell]) => terminalText(cell(key)))),
  ];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => width(row[column] ?? ""))));
  return rows.map((row) =>
    row
      .map((cell, column) => cell + " ".repeat((widths[column] ?? 0) - width(cell)))
      .join("  ")
      .trimEnd(),
  );
}

/** Prints the keys: a table on a terminal, else (or with `json`) JSON lines. */
export function writeKeyList(
  keys: readonly ListedKey[],
  stream: OutputStream,
  { json = false }: { readonly json?: boolean } = {},
): void {
  if (json || !stream.isTTY) {
    for (const key of keys) writeJson(stream, describeKey(key));
    return;
  }
  if (keys.length === 0) {
    writeLine(stream, "no keys (keys create issues one)");
    return;
  }
  for (const line of keyTable(keys)) writeLine(stream, line);
}
