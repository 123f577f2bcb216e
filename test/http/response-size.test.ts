import type { APIGatewayProxyResult } from "aws-lambda";
import { plainRoute } from "./echo-route.js";
import { header, invoke } from "./harness.js";

const LIMIT = 6_291_456;
const REQUEST_ID = "0123456789abcdef-fixed-request-id";
const serializedBytes = (response: APIGatewayProxyResult) => Buffer.byteLength(JSON.stringify(response));

/** A route answering a string of `count` copies of `char`. */
const answering = (count: number, char = "x") => plainRoute(async () => char.repeat(count));
const call = (count: number, char?: string) =>
  invoke(answering(count, char), { method: "GET", body: null, requestId: REQUEST_ID });

/** How many characters make the Lambda response, as the handler returns it, exactly `bytes` long. */
async function countFor(bytes: number, char: string, bytesPerChar: number): Promise<number> {
  const small = await call(100, char);
  expect(small.statusCode).toBe(200);
  const overhead = serializedBytes(small) - 100 * bytesPerChar;
  const count = (bytes - overhead) / bytesPerChar;
  if (!Number.isInteger(count)) throw new Error(`no whole count of ${char} gives ${bytes} bytes`);
  return count;
}

describe("the Lambda response size guard (6,291,456 bytes)", () => {
  it("returns a response of exactly the limit, whole", async () => {
    const count = await countFor(LIMIT, "x", 1);
    const response = await call(count);
    expect(response.statusCode).toBe(200);
    expect(serializedBytes(response)).toBe(LIMIT);
    expect(JSON.parse(response.body)).toHaveLength(count);
  });

  it("answers 500 internal_error, with x-request-id, for a response clearly over the limit", async () => {
    const count = await countFor(LIMIT + 1_000, "x", 1);
    const response = await call(count);
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
    expect(header(response, "x-request-id")).toBe(REQUEST_ID);
  });

  it("counts the escaping of the body inside the response", async () => {
    // Each `"` is 2 bytes in the body (\") and 4 in the serialized response (\\\"): the body alone
    // is far under the limit, the Lambda response is over it.
    const count = Math.ceil(LIMIT / 4) + 10;
    const response = await call(count, '"');
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal_error"}');
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const overByBytes = await call(Math.ceil(LIMIT / 2) + 10, "é");
    expect(overByBytes.statusCode).toBe(500);
    // 400 bytes under: room for the response's status and headers around the body.
    const underByBytes = await call(Math.floor(LIMIT / 2) - 200, "é");
    expect(underByBytes.statusCode).toBe(200);
    expect(serializedBytes(underByBytes)).toBeLessThanOrEqual(LIMIT);
  });
});
