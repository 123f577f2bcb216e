/**
 * The hooks that let Node 24 run the project's TypeScript as it is: a relative `.js` specifier
 * finds its `.ts` source, a real `.js` file still wins, and a module that is missing either way
 * fails as Node says, naming the specifier as written.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "ts-hooks-"));
  const files: Record<string, string> = {
    "package.json": '{ "type": "module" }',
    "source.ts": 'export const from: string = "source.ts";',
    "compiled.js": 'export const from = "compiled.js";',
    "compiled.ts": 'export const from: string = "compiled.ts";',
    "imports-source.ts": 'import { from } from "./source.js";\nconsole.log(from);',
    "imports-compiled.ts": 'import { from } from "./compiled.js";\nconsole.log(from);',
    "imports-missing.ts": 'import { from } from "./missing.js";\nconsole.log(from);',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const run = (file: string) =>
  spawnSync(process.execPath, [...TYPESCRIPT_NODE_OPTIONS, join(folder, file)], { encoding: "utf8" });

it("resolves a relative .js specifier to its .ts source", () => {
  const { status, stdout, stderr } = run("imports-source.ts");
  expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: "source.ts\n", stderr: "" });
});

it("takes a .js file that exists over the .ts beside it", () => {
  expect(run("imports-compiled.ts").stdout).toBe("compiled.js\n");
});

it("fails on a module missing in both spellings, naming it as written", () => {
  const { status, stderr } = run("imports-missing.ts");
  expect(status).not.toBe(0);
  expect(stderr).toContain("ERR_MODULE_NOT_FOUND");
  expect(stderr).toContain(`${folder}/missing.js`);
  expect(stderr).not.toContain(`${folder}/missing.ts`);
});
