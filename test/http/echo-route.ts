/** A small route through the real pipeline: a strict body schema, and a handler that records its calls. */
import * as z from "zod/mini";
import { type RouteRequest, routeHandler } from "../../lib/http/pipeline.js";
import { type RouteDefinition, routeById } from "../../lib/routes.js";

const echoSchema = z.strictObject({
  note: z.optional(z.string()),
  kind: z.optional(z.enum(["alpha", "beta"])),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 50),
  filters: z.optional(z.strictObject({ city: z.optional(z.string()) })),
  tags: z.optional(z.array(z.string())),
});

/** persons-search's table entry with the echo body, answering anything. */
const ECHO_ROUTE = {
  ...routeById("persons-search"),
  body: { schema: echoSchema, required: false },
  response: z.unknown(),
} as const satisfies RouteDefinition;

/** companies-hello's table entry without a body or path parameters, answering anything. */
const { pathParameters: _, ...hello } = routeById("companies-hello");
const PLAIN_ROUTE = { ...hello, response: z.unknown() } as const satisfies RouteDefinition;

/** A POST route with a body (persons-search's route id) whose handler answers `{ echo: body }`. */
export function echoRoute() {
  const calls: RouteRequest<typeof ECHO_ROUTE>[] = [];
  const handler = routeHandler(ECHO_ROUTE, async (request) => {
    calls.push(request);
    return { echo: request.body };
  });
  return { handler, calls };
}

/** A route without a body whose handler does whatever `run` does. */
export function plainRoute(run: (request: RouteRequest<typeof PLAIN_ROUTE>) => Promise<unknown>) {
  return routeHandler(PLAIN_ROUTE, run);
}

/** A JSON body of exactly `bytes` UTF-8 bytes that the echo schema accepts. */
export function jsonBodyOfBytes(bytes: number, char = "x"): string {
  const overhead = Buffer.byteLength('{"note":""}');
  const charBytes = Buffer.byteLength(char);
  const count = Math.floor((bytes - overhead) / charBytes);
  const body = JSON.stringify({
    note: char.repeat(count) + "x".repeat(bytes - overhead - count * charBytes),
  });
  if (Buffer.byteLength(body) !== bytes) throw new Error("jsonBodyOfBytes miscounted");
  return body;
}
