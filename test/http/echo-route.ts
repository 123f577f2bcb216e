/** A small route through the real pipeline: a strict body schema, and a handler that records its calls. */
import * as z from "zod/mini";
import { httpRoute, type RouteRequest } from "../../lib/http/pipeline.js";

export const echoSchema = z.strictObject({
  note: z.optional(z.string()),
  kind: z.optional(z.enum(["alpha", "beta"])),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 50),
  filters: z.optional(z.strictObject({ city: z.optional(z.string()) })),
  tags: z.optional(z.array(z.string())),
});

export type EchoBody = z.infer<typeof echoSchema>;

/** A POST route with a body (persons-search's route id) whose handler answers `{ echo: body }`. */
export function echoRoute() {
  const calls: RouteRequest<EchoBody>[] = [];
  const handler = httpRoute("persons-search", { body: echoSchema }, async (request) => {
    calls.push(request);
    return { echo: request.body };
  });
  return { handler, calls };
}

/** A route without a body whose handler does whatever `run` does. */
export function plainRoute(run: (request: RouteRequest<undefined>) => Promise<unknown>) {
  return httpRoute("companies-hello", {}, run);
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
