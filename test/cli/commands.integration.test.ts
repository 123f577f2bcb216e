/**
 * Every command-line tool as its npm script runs it (on this Node 24, with the TypeScript hooks): help,
 * a bad call and a failure each end the same way (lib/cli/args.ts), never with a stack trace.
 */
import { createServer, type Server } from "node:net";
import { runTool, STACK_FRAME } from "./run-tool.js";

const TOOLS = [
  {
    name: "keys",
    file: "lib/cli/keys.ts",
    badValue: ["list", "--endpoint", "localhost:8000"],
    flag: "--endpoint",
  },
  { name: "load", file: "lib/cli/load.ts", badValue: ["data.json", "--stage", "qa"], flag: "--stage" },
  {
    name: "directory",
    file: "lib/cli/directory.ts",
    badValue: ["verify", "--endpoint", "localhost:8000"],
    flag: "--endpoint",
  },
  { name: "demo-data", file: "lib/cli/demo-data.ts", badValue: ["--companies", "ten"], flag: "--companies" },
  { name: "bench", file: "lib/cli/bench.ts", badValue: ["--records", "0"], flag: "--records" },
  { name: "load-test", file: "lib/load-test/main.ts", badValue: ["--engine", "mongo"], flag: "--engine" },
  { name: "probe", file: "lib/probe/main.ts", badValue: ["--url", "localhost:3000"], flag: "--url" },
  { name: "openapi", file: "lib/cli/openapi.ts", badValue: ["stray"], flag: "'stray'" },
  { name: "start", file: "lib/local/main.ts", badValue: ["stray"], flag: "'stray'" },
] as const;

describe.each(TOOLS)("$name", ({ name, file, badValue, flag }) => {
  it("answers --help and -h with its usage on stdout, exit 0", async () => {
    for (const help of ["--help", "-h"]) {
      const { code, stdout, stderr } = await runTool(file, [help]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toMatch(/^usage:/);
    }
  });

  it("refuses an unknown option in one line naming it, then the usage, exit 2", async () => {
    const { code, stdout, stderr } = await runTool(file, ["--no-such-option"]);
    const help = await runTool(file, ["--help"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`${name}: Unknown option '--no-such-option'\n\n${help.stdout}`);
  });

  it("refuses a bad value in one line naming the option and the value, exit 2", async () => {
    const { code, stderr } = await runTool(file, [...badValue]);
    const [line, blank, usage] = stderr.split("\n");
    expect(code).toBe(2);
    expect(line).toContain(`${name}: `);
    expect(line).toContain(flag);
    expect(line).toContain(badValue.at(-1));
    expect(blank).toBe("");
    expect(usage).toMatch(/^usage:/);
    expect(stderr).not.toMatch(STACK_FRAME);
  });
});

describe("a failure while running", () => {
  let held: Server;
  let port: number;

  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
    port = (held.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  /** A port nothing listens on: taken from the system, then let go. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port: free } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return free;
  }

  it("keys: an unreachable endpoint is one line, exit 1", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const { code, stdout, stderr } = await runTool("lib/cli/keys.ts", ["list", "--endpoint", endpoint]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr).toMatch(/^keys: .*ECONNREFUSED.*\n$/);
  });

  it("load: a missing file is one line, exit 1", async () => {
    const { code, stderr } = await runTool("lib/cli/load.ts", ["no-such-file.json"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^load: failed, nothing changed: ENOENT: no such file or directory, open 'no-such-file.json'\n$/,
    );
  });

  it("npm start: a busy port is one line naming the port and PORT, exit 1", async () => {
    const { code, stderr } = await runTool("lib/local/main.ts", [], { PORT: String(port) });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `start: port ${port} on 127.0.0.1 is already in use: stop what holds it, or set PORT to another port (PORT=0 picks a free one)\n`,
    );
  });
});
