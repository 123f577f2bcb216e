/** Serves a local gateway over HTTP on 127.0.0.1. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GATEWAY_MAX_BODY_BYTES, type GatewayRequest, type GatewayResponse } from "./gateway.js";

async function readBody(request: IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading (so the client sees a response, not a reset) but keep nothing past the limit.
    if (size > GATEWAY_MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  return { body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge };
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function serveGateway(
  gateway: (request: GatewayRequest) => Promise<GatewayResponse>,
  port: number,
  host = "127.0.0.1",
): Promise<RunningServer> {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const { body, tooLarge } = await readBody(req);
      const response = await gateway({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.search.slice(1),
        headers: req.headersDistinct as Record<string, string[]>,
        body,
        bodyTooLarge: tooLarge,
        sourceIp: req.socket.remoteAddress ?? "127.0.0.1",
      });
      res.writeHead(response.status, {
        ...response.headers,
        "content-length": Buffer.byteLength(response.body),
      });
      res.end(response.body);
    } catch {
      // The gateway answers every failure itself; this is only a broken connection.
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end('{"error":"internal_error"}');
    }
  });
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
