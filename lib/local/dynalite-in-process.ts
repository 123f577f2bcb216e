/**
 * A request handler for the SDK that hands each request to dynalite's own request listener in this
 * process, without a socket. HTTP between a client and a dynalite in the same process (sockets,
 * parsing, keep-alive) was about a sixth of a loading test's CPU. dynalite sees the method, path,
 * headers and body the client sent and answers as it does over HTTP: the same status, headers and
 * body, its CRC32 checked by the client as ever. Other processes still reach it on its port.
 */
import { EventEmitter } from "node:events";
import type { DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";

/** The parts of a Node request dynalite reads. */
interface ListenerRequest extends EventEmitter {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** The parts of a Node response dynalite writes. */
interface ListenerResponse {
  statusCode: number;
  setHeader(name: string, value: number | string): void;
  end(body?: string): void;
}

/** dynalite's listener, as `http.createServer` was given it. */
export type DynaliteListener = (request: ListenerRequest, response: ListenerResponse) => void;

/** The SDK's request, as far as it is read here (`HttpRequest` of @smithy/types). */
interface SdkRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | string[] | null>;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

function urlOf(request: SdkRequest): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {}))
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, one ?? "");
  const search = query.toString();
  return search ? `${request.path}?${search}` : request.path;
}

function bodyOf(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // DynamoDB's JSON protocol sends strings; a stream would need reading first.
  throw new Error(`an in-process dynalite client cannot send a body of type ${typeof body}`);
}

function abortError(): Error {
  const error = new Error("the request was aborted");
  error.name = "AbortError";
  return error;
}

/** Answers one request through `listener`, as the SDK's `handle` is expected to. */
function answer(listener: DynaliteListener, sdk: SdkRequest, abortSignal?: AbortSignal) {
  return new Promise<{ response: { statusCode: number; headers: Record<string, string>; body: Buffer } }>(
    (resolve, reject) => {
      if (abortSignal?.aborted) return reject(abortError());
      // As the SDK's own handler does: an abort while dynalite works ends the wait for its answer.
      // The listener goes once the request settles: a signal may outlive many requests.
      const onAbort = () => settle(() => reject(abortError()));
      const settle = (done: () => void) => {
        abortSignal?.removeEventListener("abort", onAbort);
        done();
      };
      abortSignal?.addEventListener("abort", onAbort, { once: true });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(sdk.headers)) headers[name.toLowerCase()] = value;
      const request = Object.assign(new EventEmitter(), { method: sdk.method, url: urlOf(sdk), headers });
      const responseHeaders: Record<string, string> = {};
      const response: ListenerResponse = {
        statusCode: 200,
        setHeader(name, value) {
          responseHeaders[name.toLowerCase()] = String(value);
        },
        end(body) {
          settle(() =>
            resolve({
              response: {
                statusCode: response.statusCode,
                headers: responseHeaders,
                body: Buffer.from(body ?? "", "utf8"),
              },
            }),
          );
        },
      };
      const body = bodyOf(sdk.body);
      // On a later turn of the event loop, as over a socket: a long load's requests leave turns
      // for timers and other I/O (children calling this dynalite on its port).
      setImmediate(() => {
        if (abortSignal?.aborted) return;
        try {
          listener(request, response);
          if (body) request.emit("data", body);
          request.emit("end");
        } catch (error) {
          settle(() => reject(error));
        }
      });
    },
  );
}

/** Client settings that send every request to `listener` in this process. */
export function inProcessDynalite(listener: DynaliteListener): Partial<DynamoDBClientConfig> {
  const requestHandler = {
    metadata: { handlerProtocol: "http/1.1" },
    handle: (request: SdkRequest, options?: { abortSignal?: AbortSignal }) =>
      answer(listener, request, options?.abortSignal),
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  return { requestHandler: requestHandler as DynamoDBClientConfig["requestHandler"] };
}
