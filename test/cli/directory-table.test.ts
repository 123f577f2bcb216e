import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { jest } from "@jest/globals";
import { localEndpoint, refusedConnectionLine } from "../../lib/cli/directory-table.js";
import { writeEndpoints } from "../../lib/local/endpoints-file.js";
import { localClient } from "../../lib/local/engines.js";

let folder: string;
const saved = process.env.ENDPOINTS_FILE;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "endpoints-"));
  process.env.ENDPOINTS_FILE = join(folder, "endpoints.json");
  jest.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  if (saved === undefined) delete process.env.ENDPOINTS_FILE;
  else process.env.ENDPOINTS_FILE = saved;
  jest.restoreAllMocks();
});

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a local tool's engine", () => {
  it("is --endpoint when given", () => {
    writeEndpoints(process.env.ENDPOINTS_FILE as string, { url: "u", dynamodb: "http://127.0.0.1:5" });
    expect(localEndpoint("http://127.0.0.1:7")).toBe("http://127.0.0.1:7");
  });

  it("is the running npm start's otherwise, said on stderr", () => {
    writeEndpoints(process.env.ENDPOINTS_FILE as string, { url: "u", dynamodb: "http://127.0.0.1:5" });
    expect(localEndpoint(undefined)).toBe("http://127.0.0.1:5");
    expect(process.stderr.write).toHaveBeenCalledWith(
      "using the DynamoDB of the running npm start: http://127.0.0.1:5\n",
    );
  });

  it("is DynamoDB Local's default port when no server runs", () => {
    expect(localEndpoint(undefined)).toBe("http://127.0.0.1:8000");
  });
});

describe("a refused connection", () => {
  it("says to start npm start or pass the URL of its DynamoDB: line", async () => {
    const port = await closedPort();
    const client = localClient(`http://127.0.0.1:${port}`);
    const error = await client.send(new ListTablesCommand({})).catch((caught: unknown) => caught);
    client.destroy();
    expect(refusedConnectionLine(error)).toBe(
      `connect ECONNREFUSED 127.0.0.1:${port}: start \`npm start\`, or pass --endpoint with the URL on its \`DynamoDB:\` line`,
    );
  });

  it("leaves other failures to the default line", () => {
    expect(refusedConnectionLine(new Error("ResourceNotFoundException"))).toBeUndefined();
    expect(refusedConnectionLine(undefined)).toBeUndefined();
  });
});
