/**
 * Turns Zod issues into one `invalid_input` message that names each field and the rule it broke,
 * e.g. `limit: must be at most 100` or `unknown field "compnyId"`, the first ten of them.
 */
import type * as core from "zod/v4/core";
import { redactApiKeys } from "../keys/api-key.js";
import { cutCallerText } from "../observability/caller-text.js";

const MAX_SHOWN_VALUE = 80;

function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_VALUE ? `${cutCallerText(text, MAX_SHOWN_VALUE)}…` : text;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return "number";
  return typeof value;
}

function bound(issue: { origin?: string }, limit: number | bigint): string {
  return issue.origin === "string" ? `${limit} character${limit === 1 ? "" : "s"}` : String(limit);
}

/** Unknown fields are the caller's names: each cut short, and only the first few of them named. */
const MAX_UNKNOWN_FIELDS = 5;

function unknownFields(where: string, keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_UNKNOWN_FIELDS).map((key) => {
    const name = key.length > MAX_SHOWN_VALUE ? `${cutCallerText(key, MAX_SHOWN_VALUE)}…` : key;
    return `unknown field "${where === "" ? name : `${where}.${name}`}"`;
  });
  const more = keys.length - shown.length;
  return [...shown, ...(more > 0 ? [`and ${more} more unknown field${more === 1 ? "" : "s"}`] : [])].join(
    "; ",
  );
}

function describeIssue(issue: core.$ZodIssue): string {
  const where = fieldPath(issue.path);
  const prefix = where === "" ? "request body" : where;
  switch (issue.code) {
    case "unrecognized_keys":
      return unknownFields(where, issue.keys);
    case "invalid_type":
      if (issue.input === undefined) return `${prefix}: required`;
      // JSON.parse reads a number too large for a double (1e400) as Infinity: a number, not a finite one.
      if (issue.expected === "number" && typeof issue.input === "number" && !Number.isFinite(issue.input))
        return `${prefix}: must be a finite number`;
      return `${prefix}: expected ${issue.expected === "int" ? "integer" : issue.expected}, received ${typeName(issue.input)}`;
    case "too_small":
      return `${prefix}: must be at least ${bound(issue, issue.minimum)}`;
    case "too_big":
      return `${prefix}: must be at most ${bound(issue, issue.maximum)}`;
    case "invalid_value":
      return `${prefix}: unsupported value ${describeValue(issue.input)} (allowed: ${issue.values.map(String).join(", ")})`;
    case "invalid_format":
      return `${prefix}: must be a valid ${issue.format === "datetime" ? "date-time with a time zone (RFC 3339)" : issue.format}`;
    default:
      return `${prefix}: ${issue.message}`;
  }
}

/** The most problems a message names: 60,000 bad list items must not make a 5 MB message. */
const MAX_DESCRIBED_ISSUES = 10;

/** Never quotes a key: field names and values are the caller's text, and a key may be among them. */
export function describeZodError(error: core.$ZodError): string {
  const described = error.issues.slice(0, MAX_DESCRIBED_ISSUES).map(describeIssue);
  const more = error.issues.length - described.length;
  if (more > 0) described.push(`and ${more} more problem${more === 1 ? "" : "s"}`);
  return redactApiKeys(described.join("; "));
}
