/**
 * DynamoDB Local listens on 127.0.0.1 only: the one jest globalSetup started (through
 * startDynamoDbLocal) refuses connections to this machine's other addresses. It keeps an idle
 * connection open longer than Jetty's 30 s, so a client woken from a pause finds its sockets open.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { networkInterfaces, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDynamoDbLocalJar } from "../../lib/local/ddblocal-jar.js";
import { loopbackLauncher } from "../../lib/local/ddblocal-loopback.js";
import { DDB_LOCAL_ENV } from "../support/ddblocal-lifecycle.js";

const skipped = Boolean(process.env[DDB_LOCAL_ENV.skipped]);

/** Whether a TCP connection to host:port is accepted (false when refused). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: 10_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error(`no answer from ${host}:${port}`));
    });
    socket.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNREFUSED" ? resolve(false) : reject(error),
    );
  });
}

/**
 * One ListTables on `socket`, as a keep-alive client sends it; resolves to the status line once the
 * whole response is in (by its Content-Length), so nothing of it is left to precede the next one.
 */
function listTables(socket: Socket): Promise<string> {
  const body = "{}";
  const request = [
    "POST / HTTP/1.1",
    `Host: ${socket.remoteAddress}:${socket.remotePort}`,
    "Content-Type: application/x-amz-json-1.0",
    "X-Amz-Target: DynamoDB_20120810.ListTables",
    "Authorization: AWS4-HMAC-SHA256 Credential=local/20240101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0",
    "X-Amz-Date: 20240101T000000Z",
    `Content-Length: ${body.length}`,
    "Connection: keep-alive",
    "",
    body,
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    if (socket.readableEnded) return reject(new Error("closed by the server"));
    let received = Buffer.alloc(0);
    const closed = () => reject(new Error("closed by the server"));
    const data = (bytes: Buffer) => {
      received = Buffer.concat([received, bytes]);
      const head = received.indexOf("\r\n\r\n");
      if (head < 0) return;
      const headers = received.subarray(0, head).toString();
      // Without a Content-Length, the headers are taken as the whole response.
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(headers)?.[1] ?? 0);
      if (received.length < head + 4 + length) return;
      socket.off("close", closed).off("data", data);
      resolve(headers.slice(0, headers.indexOf("\r\n")));
    };
    socket.once("close", closed).on("data", data);
    socket.write(request);
  });
}

/** Addresses of this machine other than 127.0.0.1: its interfaces' IPv4 ones, and on Linux 127.0.0.2. */
function otherAddresses(): string[] {
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && address.family === "IPv4" && !address.internal)
    .map((address) => address?.address ?? "");
  return [...external, ...(platform() === "linux" ? ["127.0.0.2"] : [])];
}

(skipped ? describe.skip : describe)("DynamoDB Local", () => {
  it("accepts connections on 127.0.0.1 and refuses them on every other address", async () => {
    const endpoint = process.env[DDB_LOCAL_ENV.endpoint];
    if (!endpoint)
      throw new Error(`no DynamoDB Local: ${process.env[DDB_LOCAL_ENV.error] ?? "globalSetup did not run"}`);
    const port = Number(new URL(endpoint).port);
    const others = otherAddresses();
    expect(others.length).toBeGreaterThan(0);
    expect(await accepts("127.0.0.1", port)).toBe(true);
    for (const address of others) expect([address, await accepts(address, port)]).toEqual([address, false]);
  });

  it("keeps an idle keep-alive connection open past Jetty's 30 s", async () => {
    const port = Number(new URL(process.env[DDB_LOCAL_ENV.endpoint] ?? "").port);
    const socket = connect({ host: "127.0.0.1", port });
    // Read to its end, so a close by the server is seen while idle.
    socket.on("end", () => undefined).on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    try {
      expect(await listTables(socket)).toBe("HTTP/1.1 200 OK");
      // Idle at least this long, however slow the machine: a wait that can only be longer.
      await new Promise((resolve) => setTimeout(resolve, 35_000));
      expect(await listTables(socket)).toBe("HTTP/1.1 200 OK");
    } finally {
      socket.destroy();
    }
  });

  it("compiles its loopback launcher once per jar, and says why when this Java cannot", async () => {
    const jar = await ensureDynamoDbLocalJar();
    // A cache of its own, so the shared one is neither read nor written.
    const dir = join(mkdtempSync(join(tmpdir(), "ddblocal-")), "emulator");
    mkdirSync(dir);
    const copy = { ...jar, dir };
    expect(await loopbackLauncher(copy, "no-such-java")).toEqual({ unavailable: expect.any(String) });
    const compiled = await loopbackLauncher(copy);
    expect(compiled).toEqual({ classDir: expect.stringContaining(join(dir, "..", "loopback-")) });
    // Compiled now: a Java that cannot compile is not asked again.
    expect(await loopbackLauncher(copy, "no-such-java")).toEqual(compiled);
  });
});
