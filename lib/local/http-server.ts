/**
 * Serves a local gateway over HTTP on 127.0.0.1. Requests Node itself refuses (malformed, a request
 * line and headers over Node's limit, no Host, an unsupported Expect) get contract answers too
 * (lib/local/refusals.ts), never Node's bare status, and so does a CONNECT, never a closed socket.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { APIGatewayProxyResult } from "aws-lambda";
import { jsonResponse } from "../http/response.js";
import { GATEWAY_MAX_BODY_BYTES, type GatewayRequest, type GatewayResponse } from "./gateway.js";
import {
  clientErrorRefusal,
  MISSING_HOST,
  type Refusal,
  rawHttpResponse,
  refusalResponse,
  UNPARSABLE_TARGET,
  UNSUPPORTED_EXPECT,
} from "./refusals.js";

async function readBody(request: IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
  const received: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const data of request as AsyncIterable<Buffer>) {
    size += data.length;
    // Keep reading (so the client sees a response, not a reset) but keep nothing past the limit.
    if (size > GATEWAY_MAX_BODY_BYTES) tooLarge = true;
    else received.push(data);
  }
  return { body: tooLarge ? Buffer.alloc(0) : Buffer.concat(received), tooLarge };
}

/** A request Node refused before it reached the gateway. */
interface RefusedRequestEntry {
  requestId: string;
  status: number;
  cause: string;
}

export interface ServeOptions {
  host?: string;
  /** Receives one entry per refused request (nothing else is known of it: it was not parsed). */
  onRefused?: (entry: RefusedRequestEntry) => void;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

function writeResponse(res: ServerResponse, status: number, headers: Record<string, string>, body: string) {
  res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

type Gateway = (request: GatewayRequest) => Promise<GatewayResponse>;

const BASE_URL = "http://localhost";

/**
 * What refuses a request Node parsed before the gateway sees it: no Host over HTTP/1.1, or a target
 * that is no URL (Node lets `http://[bad/` and a port over 65535 through).
 */
function refusalOf(req: IncomingMessage): Refusal | undefined {
  if (req.httpVersion === "1.1" && req.headers.host === undefined) return MISSING_HOST;
  return URL.canParse(req.url ?? "/", BASE_URL) ? undefined : UNPARSABLE_TARGET;
}

/** The gateway's view of a request Node parsed (refusalOf found nothing to refuse). */
function gatewayRequest(req: IncomingMessage, body: Buffer, tooLarge: boolean): GatewayRequest {
  const url = new URL(req.url ?? "/", BASE_URL);
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: url.search.slice(1),
    headers: req.headersDistinct as Record<string, string[]>,
    body,
    bodyTooLarge: tooLarge,
    sourceIp: req.socket.remoteAddress ?? "127.0.0.1",
  };
}

/** The answer when the gateway could not be asked (it answers its own failures). */
function internalError(): APIGatewayProxyResult {
  return jsonResponse(500, { error: "internal_error" }, { "x-request-id": randomUUID() });
}

/** Hands a request to the gateway and writes its answer. */
async function forward(gateway: Gateway, req: IncomingMessage, res: ServerResponse) {
  try {
    const { body, tooLarge } = await readBody(req);
    const response = await gateway(gatewayRequest(req, body, tooLarge));
    writeResponse(res, response.status, response.headers, response.body);
  } catch {
    // The gateway answers every failure itself; this is only a broken connection.
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const response = internalError();
    writeResponse(res, 500, response.headers as Record<string, string>, response.body);
  }
}

/**
 * A CONNECT, which Node hands over with the bare socket (and, with no listener, closes unanswered).
 * Nothing is tunnelled: the gateway answers it as any method no route serves (its usual target, an
 * authority such as `example.com:443`, is no route's path: 404), and the connection closes.
 */
async function answerConnect(gateway: Gateway, req: IncomingMessage): Promise<APIGatewayProxyResult> {
  try {
    const { status, headers, body } = await gateway(gatewayRequest(req, Buffer.alloc(0), false));
    return { statusCode: status, headers, body };
  } catch {
    return internalError();
  }
}

async function listen(server: Server, port: number, host: string): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export async function serveGateway(
  gateway: (request: GatewayRequest) => Promise<GatewayResponse>,
  port: number,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const refuse = (refusal: Refusal) => {
    const requestId = randomUUID();
    options.onRefused?.({ requestId, status: refusal.status, cause: refusal.cause });
    return refusalResponse(refusal, requestId);
  };
  const answerRefusal = (res: ServerResponse, refusal: Refusal) => {
    const response = refuse(refusal);
    writeResponse(res, response.statusCode, response.headers as Record<string, string>, response.body);
  };
  // The response under way on each connection: a refusal must not be written into one already started.
  const inFlight = new WeakMap<Duplex, ServerResponse>();

  // Host is checked below (refusalOf), so that its absence gets a contract answer too.
  const server = createServer({ requireHostHeader: false }, async (req, res) => {
    inFlight.set(req.socket, res);
    res.once("close", () => {
      if (inFlight.get(req.socket) === res) inFlight.delete(req.socket);
    });
    const refusal = refusalOf(req);
    if (refusal) {
      req.resume();
      res.shouldKeepAlive = false;
      answerRefusal(res, refusal);
      return;
    }
    await forward(gateway, req, res);
  });
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    answerRefusal(res, UNSUPPORTED_EXPECT);
  });
  server.on("connect", async (req: IncomingMessage, socket: Duplex) => {
    // Node took its own error listener off the socket with its parser.
    socket.on("error", () => socket.destroy());
    const refusal = refusalOf(req);
    const response = refusal ? refuse(refusal) : await answerConnect(gateway, req);
    socket.end(rawHttpResponse(response), () => socket.destroy());
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: answer only a live socket that no other response has started on.
    if (error.code === "ECONNRESET" || !socket.writable || inFlight.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawHttpResponse(refuse(clientErrorRefusal(error.code))), () => socket.destroy());
  });
  return listen(server, port, host);
}
