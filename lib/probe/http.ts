/**
 * The probe's HTTP: node:http with header pairs as given (a repeated name goes out as repeated header
 * lines, in order) and a Buffer body sent byte for byte, on a connection of its own; each answer
 * timed from the request's start to its body's end.
 */
import { request } from "node:http";

export interface ProbeRequest {
  readonly method: "GET" | "POST";
  /** As written on the request line. */
  readonly path: string;
  /** Name/value pairs; a name may repeat. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Buffer;
}

export interface TimedAnswer {
  /** -1 when no answer came (refused, reset, or no answer within the wait). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  readonly ms: number;
  /** Why there was no answer. */
  readonly failure?: string;
}

/** Longer than any limit a case sets: an answer this late has failed its case anyway. */
const GIVE_UP_MS = 30_000;

/**
 * Header pairs as node:http's headers object: a repeated name becomes a list, sent as repeated
 * header lines in order. An object, not raw pairs, so that node:http sees the content-length and
 * adds no chunked encoding beside it. No prototype: a header named `__proto__` goes like any other.
 */
export function headerLines(
  pairs: readonly (readonly [string, string])[],
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const previous = headers[key];
    headers[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return headers;
}

export function sendTimed(baseUrl: string, probe: ProbeRequest): Promise<TimedAnswer> {
  const url = new URL(baseUrl);
  const headers = headerLines(probe.headers);
  const body = probe.body ?? Buffer.alloc(0);
  if (probe.method === "POST") headers["content-length"] = String(body.length);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: probe.method,
        path: probe.path,
        headers,
        agent: false,
        timeout: GIVE_UP_MS,
      },
      (res) => {
        const received: Buffer[] = [];
        res.on("data", (data: Buffer) => received.push(data));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? -1,
            headers: res.headers,
            body: Buffer.concat(received).toString("utf8"),
            ms: elapsed(),
          }),
        );
        res.on("error", (error) =>
          resolve({ status: -1, headers: {}, body: "", ms: elapsed(), failure: error.message }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${GIVE_UP_MS / 1000} s`)));
    req.on("error", (error) =>
      resolve({ status: -1, headers: {}, body: "", ms: elapsed(), failure: error.message }),
    );
    req.end(body);
  });
}

/** The `error` and `message` of an error body, or what is wrong with the body. */
export function errorBody(body: string): { error?: unknown; message?: unknown } | string {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null
      ? parsed
      : `body is not an object: ${body.slice(0, 80)}`;
  } catch {
    return `body is not JSON: ${body.slice(0, 80)}`;
  }
}
