/**
 * What the operator tools print reaches a terminal only through lib/cli/terminal-text.ts, which
 * shows control and bidirectional characters as escapes. A tool that wrote with console.log or
 * process.stdout.write directly would print a partner name's ESC or U+202E raw.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const TOOL_FOLDERS = ["lib/cli", "lib/probe", "lib/load-test", "lib/bench", "lib/local"];
const DIRECT_OUTPUT = /\bconsole\.(log|error|warn|info)\(|\bprocess\.(stdout|stderr)\.write\(/;
/** The one writer, and the places that hand it on or are not a terminal's. */
const ALLOWED = new Map([
  ["lib/cli/terminal-text.ts", "the escaping writer itself"],
  ["lib/cli/args.ts", "runCli's default writers, handed text terminalText already escaped"],
  ["lib/bench/bundles.ts", "the source of a child script that reports a number"],
]);

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => `${folder}/${path}`);
}

it("prints from every tool through terminal-text.ts", () => {
  const direct = TOOL_FOLDERS.flatMap(sources)
    .filter((path) => !ALLOWED.has(path))
    .filter((path) => DIRECT_OUTPUT.test(readFileSync(join(ROOT, path), "utf8")));
  expect(direct).toEqual([]);
});

it("finds direct output where it is", () => {
  expect(DIRECT_OUTPUT.test('console.log("x")')).toBe(true);
  expect(DIRECT_OUTPUT.test("process.stderr.write(`x\\n`)")).toBe(true);
  expect(DIRECT_OUTPUT.test('say("x")')).toBe(false);
});
