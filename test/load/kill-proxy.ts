/**
 * An HTTP proxy between a loader process and a DynamoDB engine, which names each call by what it is
 * in a load (journal entry, batch of writes, the flip, …) and can kill the loader at the n-th call of
 * a kind: before the call reaches the engine, or after the engine applied it but before the loader
 * hears back. Crash points are therefore exact and the same on every run of a seed, on any machine.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const CALL_KINDS = [
  "lease",
  "journal",
  "write",
  "stamp",
  "scan",
  "ids",
  "publish",
  "cleanup",
  "cleaned",
  "release",
] as const;
export type CallKind = (typeof CALL_KINDS)[number] | "renew" | "read" | "other";

export interface KillPoint {
  readonly kind: CallKind;
  /** 1 for the first call of that kind. */
  readonly index: number;
  readonly when: "before" | "after";
}

const describePoint = (point: KillPoint) => `${point.when} ${point.kind} #${point.index}`;

export { describePoint };

/** A Query of the id index (partitions 0xfb…): a snapshot reading its stored ids. */
function isIdIndexQuery(body: Record<string, unknown>): boolean {
  const values = body.ExpressionAttributeValues as Record<string, { B?: string }> | undefined;
  const p = values?.[":p"]?.B;
  return p !== undefined && Buffer.from(p, "base64")[0] === 0xfb;
}

/** What an UpdateItem is to a load, from its expression. */
function updateKind(update: string): CallKind {
  if (update.startsWith("SET lease =")) return "lease";
  if (update.includes("committed =")) return "publish";
  if (update === "REMOVE cleanup") return "cleaned";
  if (update === "REMOVE lease") return "release";
  if (update.startsWith("SET lease.")) return "renew";
  return "stamp";
}

/** What a DynamoDB call is to a load, from its operation and expressions. */
function kindOf(operation: string, body: Record<string, unknown>, published: boolean): CallKind {
  const update = typeof body.UpdateExpression === "string" ? body.UpdateExpression : "";
  switch (operation) {
    case "PutItem":
      // Unconditional: a journal entry; conditional: a location, or an item a repair rewrites.
      return body.ConditionExpression === undefined ? "journal" : "write";
    case "BatchWriteItem":
      return published ? "cleanup" : "write";
    case "Scan":
      return "scan";
    case "UpdateItem":
      return updateKind(update);
    case "Query":
      return isIdIndexQuery(body) ? "ids" : "read";
    case "GetItem":
    case "BatchGetItem":
      return "read";
    default:
      return "other";
  }
}

export interface KillProxy {
  readonly url: string;
  /** Every call seen, in arrival order. */
  readonly calls: CallKind[];
  /** Whether the kill point was reached (and `kill` called). */
  fired(): boolean;
  /** Resolves once every call already passed to the engine has been answered by it. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const bodyOf = (message: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const received: Buffer[] = [];
    message.on("data", (data: Buffer) => received.push(data));
    message.on("end", () => resolve(Buffer.concat(received)));
    message.on("error", reject);
  });

/** The DynamoDB operation a call names (`DynamoDB_20120810.PutItem`: `PutItem`). */
const operationOf = (incoming: IncomingMessage) =>
  String(incoming.headers["x-amz-target"] ?? "").split(".")[1] ?? "";

const parsedBody = (body: Buffer): Record<string, unknown> =>
  body.length > 0 ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>) : {};

/** Sends the call on to the engine as it came, and reads its whole answer. */
const forward = (target: URL, incoming: IncomingMessage, body: Buffer) =>
  new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        bodyOf(response).then(
          (answer) =>
            resolve({ status: response.statusCode ?? 500, headers: response.headers, body: answer }),
          reject,
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });

/** Starts a proxy to `upstream`; `kill` runs once, when `point` (if any) is reached. */
export async function startKillProxy(
  upstream: string,
  point: KillPoint | undefined,
  kill: () => void,
): Promise<KillProxy> {
  const target = new URL(upstream);
  const calls: CallKind[] = [];
  const seen = new Map<CallKind, number>();
  let published = false;
  let killed = false;
  let inFlight = 0;
  const idle: (() => void)[] = [];
  const fire = () => {
    if (killed) return;
    killed = true;
    kill();
  };
  const done = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const resolve of idle.splice(0)) resolve();
  };

  /** Names the call, counts it, and says whether it is the kill point. */
  const isKillPoint = (incoming: IncomingMessage, body: Buffer): boolean => {
    const kind = kindOf(operationOf(incoming), parsedBody(body), published);
    if (kind === "publish") published = true;
    calls.push(kind);
    const count = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, count);
    return point !== undefined && point.kind === kind && point.index === count;
  };

  /** Passes the call to the engine, and its answer back unless the loader was killed meanwhile. */
  const relay = async (incoming: IncomingMessage, reply: ServerResponse, body: Buffer, hit: boolean) => {
    inFlight += 1;
    try {
      const answer = await forward(target, incoming, body);
      if (hit) fire();
      if (killed) return void reply.destroy();
      reply.writeHead(answer.status, answer.headers);
      reply.end(answer.body);
    } finally {
      done();
    }
  };

  const handle = async (incoming: IncomingMessage, reply: ServerResponse) => {
    const body = await bodyOf(incoming);
    // A call sent after the kill point is lost with the process that sent it.
    if (killed) return void reply.destroy();
    const hit = isKillPoint(incoming, body);
    if (hit && point?.when === "before") {
      fire();
      return void reply.destroy();
    }
    await relay(incoming, reply, body, hit);
  };

  const server = createServer((incoming, reply) => {
    handle(incoming, reply).catch(() => reply.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    fired: () => killed,
    settled: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
