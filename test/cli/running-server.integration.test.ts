/**
 * `npm start` records its endpoints, and `directory` and `keys` given no target use its engine;
 * it removes the record when it stops. (npm start's own engine, dynalite: the commands reach it
 * over HTTP as they would reach DynamoDB Local.)
 */
import { existsSync } from "node:fs";
import { readEndpoints } from "../../lib/local/endpoints-file.js";
import { type NpmStart, startNpmStart } from "../support/npm-start.js";
import { runTool } from "./run-tool.js";

let server: NpmStart;
let file: string;

beforeAll(async () => {
  server = await startNpmStart("running-server-");
  file = server.file;
});

afterAll(() => server.stop());

describe("commands without --endpoint while npm start runs", () => {
  it("directory verify checks the running server's directory", async () => {
    const { code, stdout, stderr } = await runTool("lib/cli/directory.ts", ["verify"], {
      ENDPOINTS_FILE: file,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok: generation \d+, the whole table: \d+ records/);
    expect(stderr).toBe(`using the DynamoDB of the running npm start: ${readEndpoints(file)?.dynamodb}\n`);
  });

  it("keys list lists the running server's keys", async () => {
    const { code, stdout } = await runTool("lib/cli/keys.ts", ["list"], { ENDPOINTS_FILE: file });
    expect(code).toBe(0);
    expect(stdout).toContain('"partner":"Acme Integrator (two companies)"');
  });

  it("keys create makes a key there, warning about a company the directory does not hold", async () => {
    const { code, stdout, stderr } = await runTool(
      "lib/cli/keys.ts",
      [
        "create",
        "--partner",
        "P",
        "--operations",
        "companies.hello",
        "--companies",
        "acme-home-care,acme-typo",
      ],
      { ENDPOINTS_FILE: file },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pd_test_\w+\n$/);
    expect(stderr).toContain(
      "warning: not in the directory (no employee records): acme-typo; the key reads nothing there until they are loaded",
    );
  });

  it("the record goes when npm start stops", async () => {
    await server.stop();
    expect(existsSync(file)).toBe(false);
  });
});
