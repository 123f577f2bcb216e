/** Zod schemas of the contract's error bodies, per status, for the OpenAPI document and tests. */
import { z } from "zod";
import type { ErrorCode } from "../http/errors.js";

const ERROR_DESCRIPTIONS: Readonly<Record<ErrorCode, string>> = {
  invalid_input: "The body or a filter is invalid; `message` names the field and the rule.",
  invalid_company_id:
    "The path's company id is empty, over 128 characters, or has characters other than letters, digits, `-`, `_`, `.`.",
  invalid_api_key: "The key is missing, malformed (bad checksum), unknown or revoked.",
  forbidden: "The key may not use this operation, or may not read this company.",
  not_found: "No such route (the draft search routes are not served in sandbox and prod).",
  method_not_allowed: "The path exists but not with this method.",
  rate_limited: "The key's request allowance is exhausted; retry after `Retry-After` seconds.",
  internal_error: "The service could not complete the request; report the `x-request-id`.",
};

/** `{error}` with one of `codes`; `message` is allowed only when `invalid_input` is among them. */
export function errorBodySchema(codes: readonly [ErrorCode, ...ErrorCode[]]) {
  const error = z
    .enum(codes)
    .meta({ description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" ") });
  return codes.includes("invalid_input")
    ? z.strictObject({
        error,
        message: z.string().optional().meta({ description: "What is wrong, naming the field." }),
      })
    : z.strictObject({ error });
}
