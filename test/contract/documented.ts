/**
 * What every answer of the local server must be, whatever was sent: a documented status for the
 * path and method (the route table's errors of the route plus 200; 404 / 405 off the route table),
 * never a 500, a body valid against the strict schema of that status, an `x-request-id`, and
 * nothing of the internals (stack frames, file paths, error class names, table or engine names).
 */
import { parse } from "zod/mini";
import { routeMatcher } from "../../lib/local/route-match.js";
import { errorBodySchema } from "../../lib/openapi/error-schemas.js";
import { ROUTES } from "../../lib/routes.js";
import { expectStandardHeaders } from "../support/contract.js";
import type { RawResponse } from "../support/raw-http.js";

const match = routeMatcher(ROUTES);
/** Public documents the local server serves for GET and HEAD without a key (405 for other methods). */
const DOCUMENTS = new Set(["/", "/openapi.json"]);

/** Internals an answer must never show, unless the caller sent that very text (an echoed field name). */
const INTERNALS: readonly RegExp[] = [
  /\bstack\b/i,
  /\bat (async )?[\w$.<>[\]]+ \(/,
  /\n\s+at /,
  /Error:/,
  /[\w-]+\.(ts|js|mjs|cjs)\b/,
  /(^|[\s"'(])\/(work|home|tmp|usr|var|opt|srv)\//,
  /node_modules/,
  /\bdirectory\b/,
  /\bkeys\b/,
  /dynamo/i,
  /dynalite/i,
  /ResourceNotFound/,
  /ValidationException/,
  /ConditionalCheck/,
  /\bprototype\b/,
  /\bundefined\b/,
  /\[object Object\]/,
];

/** The statuses the contract documents for this method and (server-resolved) path. */
function documentedStatuses(method: string, path: string): number[] {
  if (DOCUMENTS.has(path)) return method === "GET" || method === "HEAD" ? [200] : [405];
  const found = match(method, path);
  if (found.kind === "not_found") return [404];
  if (found.kind === "method_not_allowed") return [405];
  return [200, ...Object.keys(found.route.errors).map(Number)];
}

/** The path as the local server resolves it: `.`/`..` segments collapse, the query is dropped. */
function serverPath(requestPath: string): string {
  return new URL(requestPath, "http://localhost").pathname;
}

/** Parses the body with the strict schema the contract gives this route and status. */
function expectBodySchema(method: string, path: string, status: number, json: unknown): void {
  const found = match(method, path);
  if (DOCUMENTS.has(path) || found.kind === "method_not_allowed") {
    errorBodySchema(["method_not_allowed"]).parse(json);
  } else if (found.kind === "not_found") {
    errorBodySchema(["not_found"]).parse(json);
  } else if (status === 200) {
    parse(found.route.response, json);
  } else {
    const codes = found.route.errors[status];
    if (!codes) throw new Error(`${method} ${path}: ${status} is not documented`);
    errorBodySchema(codes).parse(json);
  }
}

/**
 * Throws (through expect) unless the answer is documented. `sent` is everything the caller sent, as
 * text: an internal-looking word that the caller wrote itself (e.g. an unknown field named `stack`,
 * which the message must name) is an echo, not a leak.
 */
export function expectDocumented(method: string, requestPath: string, response: RawResponse, sent: string) {
  const path = serverPath(requestPath);
  expect(response.status).not.toBe(500);
  expect(documentedStatuses(method, path)).toContain(response.status);
  expectStandardHeaders(response.status, response.headers);
  if (DOCUMENTS.has(path) && response.status === 200) return;
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expectBodySchema(method, path, response.status, JSON.parse(response.body));
  // A 200 here is a route's (documentedStatuses allows no other): its body is directory data, which
  // may hold any text, so it is checked by schema only.
  if (response.status === 200) return;
  if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  for (const pattern of INTERNALS) {
    if (pattern.test(response.body) && !pattern.test(sent)) {
      throw new Error(`${method} ${path} answered ${response.status} ${response.body}: shows ${pattern}`);
    }
  }
}
