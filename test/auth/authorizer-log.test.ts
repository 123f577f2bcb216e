/**
 * The authorizer's "key accepted" line: the partner name is operator text (whoever ran
 * `keys create` typed it), logged on every request, so it is redacted, escaped and cut as caller
 * text is; so is the context's, which API Gateway's access log quotes. The keys table is a mocked
 * document client: the real handler runs, nothing calls AWS.
 */
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayTokenAuthorizerEvent, Context } from "aws-lambda";
import { mockClient } from "aws-sdk-client-mock";
import { generateApiKey, hashApiKey } from "../../lib/keys/api-key.js";
import { MAX_CALLER_TEXT_CHARS } from "../../lib/observability/caller-text.js";
import { logger } from "../../lib/observability/logger.js";
import { KEYS_ATTR } from "../../lib/store/tables.js";
import { captureLogsPerTest } from "../http/output-capture.js";

process.env.KEYS_TABLE = "keys";
const { handler } = await import("../../functions/authorizer.js");

const table = mockClient(DynamoDBDocumentClient);
const logs = captureLogsPerTest(logger);
afterAll(() => table.restore());

const context = { functionName: "authorizer", awsRequestId: "req" } as unknown as Context;

/** Stores a key for `partner` and has the authorizer accept it; the line it logged. */
async function acceptedLine(
  partner: string,
): Promise<{ line: string; entry: Record<string, unknown>; contextPartner: unknown }> {
  const key = generateApiKey("test");
  table.on(GetCommand, { Key: { [KEYS_ATTR.hash]: hashApiKey(key) } }).resolves({
    Item: {
      [KEYS_ATTR.hash]: hashApiKey(key),
      [KEYS_ATTR.keyId]: "key_0123456789abcdef",
      partner,
      operations: ["companies.hello"],
      companies: ["acme"],
      throttle: { rateLimit: 10, burstLimit: 20 },
      usageKey: "key_0123456789abcdef",
      status: "active",
      createdAt: "2025-01-01T00:00:00.000Z",
    },
  });
  const event: APIGatewayTokenAuthorizerEvent = {
    type: "TOKEN",
    authorizationToken: `Bearer ${key}`,
    methodArn: "arn:aws:execute-api:eu-west-1:111111111111:api/dev/GET/v1/companies/acme/hello",
  };
  const result = await handler(event, context);
  expect(result.policyDocument.Statement[0]?.Effect).toBe("Allow");
  const line = logs
    .text()
    .split("\n")
    .find((text) => text.includes('"key accepted"'));
  if (!line) throw new Error("no key accepted line");
  return {
    line,
    entry: JSON.parse(line) as Record<string, unknown>,
    contextPartner: result.context?.partner,
  };
}

describe("the authorizer's key accepted line", () => {
  it("logs a plain partner name as it is", async () => {
    const { entry, contextPartner } = await acceptedLine("Acme Home Care");
    expect(entry).toMatchObject({ keyId: "key_0123456789abcdef", partner: "Acme Home Care" });
    expect(contextPartner).toBe("Acme Home Care");
  });

  it("redacts key text in the partner name", async () => {
    const pasted = generateApiKey("test");
    const { line, entry, contextPartner } = await acceptedLine(`Acme prod key ${pasted}`);
    expect(entry.partner).toBe("Acme prod key pd_…[redacted]");
    expect(contextPartner).toBe(entry.partner);
    expect(line).not.toContain(pasted.slice(8, 16));
    expect(line).not.toMatch(/pd_(test|live)_/);
  });

  it("cuts a 20,000-character partner name short", async () => {
    const { line, entry, contextPartner } = await acceptedLine("p".repeat(20_000));
    expect(entry.partner).toBe(`${"p".repeat(MAX_CALLER_TEXT_CHARS - 37)}…[cut: 20000 characters in all]`);
    expect(contextPartner).toBe(entry.partner);
    expect(Buffer.byteLength(line)).toBeLessThan(1_000);
  });

  it("escapes bidi and control characters in the partner name", async () => {
    const { line, entry, contextPartner } = await acceptedLine("Acme\u202e evil\u2066\u0085\n");
    expect(entry.partner).toBe("Acme\\u202e evil\\u2066\\u0085\\u000a");
    expect(contextPartner).toBe(entry.partner);
    expect(line).not.toMatch(/[\u202e\u2066\u0085]/);
  });
});
