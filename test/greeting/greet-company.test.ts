import type { APIGatewayProxyEvent } from "aws-lambda";
import { principalFromEvent, toAuthorizerContext } from "../../lib/auth/principal.js";
import { GREETING_MESSAGE, greetCompany, greetingSchema } from "../../lib/greeting/greet-company.js";
import { ForbiddenError, InvalidCompanyIdError } from "../../lib/http/errors.js";
import { parsePathParameters } from "../../lib/http/middleware/validate-path-parameters.js";
import { routeById } from "../../lib/routes.js";

const LONGEST = "a".repeat(128);
const GRANTED = ["acme", "Acme-2_b.c", LONGEST, "0", "...", "a".repeat(129), "ac me", "a/b", "é"];
const principal = principalFromEvent({
  requestContext: {
    authorizer: toAuthorizerContext({
      keyId: "key_GreetGreetGreet1",
      partner: "Greeter",
      operations: ["companies.hello"],
      companies: GRANTED,
      throttle: { rateLimit: 10, burstLimit: 20 },
    }),
  } as unknown as APIGatewayProxyEvent["requestContext"],
});

const GREETING_PATH = routeById("companies-hello").pathParameters;

/** The route's way: its path schema (as the pipeline applies it), then the use case. */
function outcome(companyId: string | undefined): string {
  try {
    const path = parsePathParameters(GREETING_PATH, companyId === undefined ? null : { companyId });
    return JSON.stringify(greetCompany(principal, path.companyId));
  } catch (error) {
    if (error instanceof InvalidCompanyIdError) return "invalid_company_id";
    if (error instanceof ForbiddenError) return "forbidden";
    throw error;
  }
}

describe("the greeting: its path schema, then greetCompany", () => {
  it("answers the fixed greeting for a granted company, matching the response schema", () => {
    const greeting = greetCompany(principal, "acme");
    expect(greeting).toEqual({ message: GREETING_MESSAGE });
    expect(greetingSchema.safeParse(greeting).success).toBe(true);
    expect(GREETING_MESSAGE).toMatch(/\S/);
  });

  it.each([["acme"], ["Acme-2_b.c"], ["0"], ["..."], [LONGEST]])("greets the well-formed id %j", (id) => {
    expect(outcome(id)).toBe(JSON.stringify({ message: GREETING_MESSAGE }));
  });

  it.each([
    ["empty", ""],
    ["129 characters (even when granted)", "a".repeat(129)],
    ["a space (even when granted)", "ac me"],
    ["a slash (even when granted)", "a/b"],
    ["a non-ASCII letter (even when granted)", "é"],
    ["a percent sign", "a%20b"],
    ["an encoded slash left encoded", "a%2Fb"],
    ["a fullwidth letter", "ａcme"],
    ["a trailing newline", "acme\n"],
    ["a leading space", " acme"],
    ["a colon", "acme:1"],
    ["an emoji", "acme🙂"],
    ["missing", undefined],
  ])("refuses %s with invalid_company_id", (_, id) => {
    expect(outcome(id)).toBe("invalid_company_id");
  });

  it("refuses a well-formed company the key was not granted with forbidden", () => {
    expect(outcome("other")).toBe("forbidden");
    expect(outcome("ACME")).toBe("forbidden");
    expect(outcome("a".repeat(127))).toBe("forbidden");
  });
});
