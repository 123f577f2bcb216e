/**
 * The docs stay a reference (docs/testing.md): the README at most 14 KB, each page of docs/ at
 * most 25 KB and all of them at most 120 KB (the bench's JSON under docs/bench/ is generated and
 * not counted), and no page, comment or message names an issue number: it says what the thing is.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url).pathname;
const README_MAX_BYTES = 14_000;
const PAGE_MAX_BYTES = 25_000;
const PAGES_MAX_BYTES = 120_000;
/** The word, in either case and number, then digits: after a space, a '#', both or neither. */
const ISSUE_NUMBER = /\bissues?\s*#?\d/i;
const TEXT_FILE = /\.(ts|js|cjs|mjs|md|json|jsonc|yaml|yml|java|sh)$|^\.ci\/|^\.githooks\//;

function tracked(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((path) => path !== "" && path !== "package-lock.json");
}

const files = tracked();
const pages = files.filter((path) => path.startsWith("docs/") && path.endsWith(".md"));
const bytes = (path: string) => statSync(`${ROOT}${path}`).size;

it("keeps the README within 14 KB", () => {
  expect(bytes("README.md")).toBeLessThanOrEqual(README_MAX_BYTES);
});

it("keeps each page of docs/ within 25 KB, and all of them within 120 KB", () => {
  expect(pages.length).toBeGreaterThan(5);
  const over = pages.filter((path) => bytes(path) > PAGE_MAX_BYTES);
  expect(over).toEqual([]);
  const total = pages.reduce((sum, path) => sum + bytes(path), 0);
  expect(total).toBeLessThanOrEqual(PAGES_MAX_BYTES);
});

it("names no issue number in docs, code or messages", () => {
  const naming = files
    .filter((path) => TEXT_FILE.test(path))
    .flatMap((path) =>
      readFileSync(`${ROOT}${path}`, "utf8")
        .split("\n")
        .flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
  expect(naming).toEqual([]);
});
