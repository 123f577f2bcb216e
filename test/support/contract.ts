/**
 * Checks an HTTP response against the contract: the route's documented statuses, the strict body
 * schema of that status, `x-request-id`, and `Retry-After` on 429. The schemas are the ones
 * openapi.json is generated from (test/openapi checks that file is current), so passing here
 * means the response matches the published document, with no property it does not declare.
 */
import { parse } from "zod/mini";
import { routeMatcher } from "../../lib/local/route-match.js";
import { errorBodySchema } from "../../lib/openapi/error-schemas.js";
import { ROUTES } from "../../lib/routes.js";

const match = routeMatcher(ROUTES);

export interface SeenResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: string;
}

/**
 * The headers of every answer, whoever made it (a function, the gateway, or the server refusing a
 * request): the request id, no-store and nosniff; the Bearer scheme on 401 only, the served
 * methods on 405 only.
 */
export function expectStandardHeaders(status: number, headers: Headers): void {
  expect(headers.get("x-request-id")).toMatch(/^\S+$/);
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("www-authenticate")).toBe(status === 401 ? "Bearer" : null);
  if (status === 405) expect(headers.get("allow")).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  else expect(headers.get("allow")).toBeNull();
}

export function expectContractResponse({ method, path, status, headers, body }: SeenResponse): void {
  expectStandardHeaders(status, headers);
  // The public documents: the OpenAPI document, and GET / naming it and the reference page.
  if ((path === "/openapi.json" || path === "/") && status === 200) return;
  expect(headers.get("content-type")).toMatch(/^application\/json/);
  const json: unknown = JSON.parse(body);
  const found = match(method, path);
  if (found.kind !== "route") {
    // Unknown routes and methods: the gateway's own answers (404, 405), or its 400 for oversize bodies.
    const codes =
      found.kind === "not_found"
        ? (["not_found", "invalid_input"] as const)
        : (["method_not_allowed"] as const);
    errorBodySchema([...codes] as [(typeof codes)[number], ...(typeof codes)[number][]]).parse(json);
    return;
  }
  const contract = found.route;
  if (status === 200) {
    parse(contract.response, json);
    return;
  }
  const codes = contract.errors[status];
  if (!codes) throw new Error(`${method} ${path} answered ${status}, which the contract does not document`);
  errorBodySchema(codes).parse(json);
  if (status === 429) expect(Number(headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}
