import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { UsageError } from "../../lib/cli/args.js";
import { refusedConnectionLine } from "../../lib/cli/directory-table.js";
import { answers, chooseTarget } from "../../lib/load-test/target.js";

const RECORDED = { url: "http://127.0.0.1:3000", dynamodb: "http://127.0.0.1:4000", pid: 42 };
const NAMED = { url: "http://127.0.0.1:3001", endpoint: "http://127.0.0.1:4001" };

describe("which server the load test drives", () => {
  it("drives the recorded npm start by default, if it answers", () => {
    expect(chooseTarget({ ownServerFlags: [] }, RECORDED)).toEqual({
      kind: "running",
      server: { url: RECORDED.url, dynamodb: RECORDED.dynamodb, pid: 42 },
      recorded: true,
    });
  });

  it("starts its own when none runs, when asked, or when given its own server's flags", () => {
    expect(chooseTarget({ ownServerFlags: [] }, undefined)).toEqual({ kind: "own" });
    expect(chooseTarget({ ownServer: true, ownServerFlags: [] }, RECORDED)).toEqual({ kind: "own" });
    expect(chooseTarget({ ownServerFlags: ["records"] }, RECORDED)).toEqual({ kind: "own" });
  });

  it("drives the server --url and --endpoint name, with the recorded pid only if it is that one", () => {
    expect(chooseTarget({ ...NAMED, ownServerFlags: [] }, RECORDED)).toEqual({
      kind: "running",
      server: { url: NAMED.url, dynamodb: NAMED.endpoint },
      recorded: false,
    });
    expect(
      chooseTarget({ url: RECORDED.url, endpoint: NAMED.endpoint, ownServerFlags: [] }, RECORDED),
    ).toEqual({
      kind: "running",
      server: { url: RECORDED.url, dynamodb: NAMED.endpoint, pid: 42 },
      recorded: false,
    });
  });

  it("refuses --url without --endpoint, and --url with its own server's flags", () => {
    expect(() => chooseTarget({ url: NAMED.url, ownServerFlags: [] }, undefined)).toThrow(
      new UsageError("--url and --endpoint go together: the service's URL and its DynamoDB's"),
    );
    expect(() => chooseTarget({ ...NAMED, ownServer: true, ownServerFlags: ["engine"] }, undefined)).toThrow(
      new UsageError("--url drives a running server; --own-server, --engine start one"),
    );
  });
});

describe("whether a server answers", () => {
  it("answers for any HTTP status", async () => {
    const server = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(answers(`http://127.0.0.1:${port}`)).resolves.toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails on a refused connection with the error the commands' hint is made from", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const error = await answers(`http://127.0.0.1:${port}`).catch((caught: unknown) => caught);
    expect(refusedConnectionLine(error)).toBe(
      `connect ECONNREFUSED 127.0.0.1:${port}: start \`npm start\`, or pass --endpoint with the URL on its \`DynamoDB:\` line`,
    );
  });
});
