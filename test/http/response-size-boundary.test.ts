/**
 * The size guard at its exact boundary, with the response as the handler really returns it
 * (x-request-id included): a guard that measured the response before x-request-id was added let
 * up to 54 bytes over the limit through.
 */
import type { APIGatewayProxyResult } from "aws-lambda";
import { plainRoute } from "./echo-route.js";
import { invoke } from "./harness.js";

const LIMIT = 6_291_456;
// API Gateway request ids are UUIDs.
const REQUEST_ID = "3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b";
const serializedBytes = (response: APIGatewayProxyResult) => Buffer.byteLength(JSON.stringify(response));
const call = (count: number) =>
  invoke(
    plainRoute(async () => "x".repeat(count)),
    { method: "GET", body: null, requestId: REQUEST_ID },
  );

it("never returns a Lambda response over 6,291,456 bytes (x-request-id included)", async () => {
  const overhead = serializedBytes(await call(100)) - 100;
  // At the limit it passes whole; a single byte over is refused, so a guard that lets any excess
  // through (the x-request-id's 54 bytes, say) fails here. Far over is refused too.
  const exact = await call(LIMIT - overhead);
  expect([serializedBytes(exact), exact.statusCode]).toEqual([LIMIT, 200]);
  for (const over of [1, 54, 64]) {
    const response = await call(LIMIT + over - overhead);
    expect([over, response.statusCode]).toEqual([over, 500]);
  }
});
