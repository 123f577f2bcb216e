/**
 * A quiet install: npm 11 warns of every dependency install script that package.json's
 * `allowScripts` does not cover (npm 12 skips them), so each one in the lockfile has an entry,
 * approved or denied, and the README says why for each.
 */
import { readFileSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");

interface LockedPackage {
  hasInstallScript?: boolean;
}
const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, LockedPackage> };
const allowScripts = (JSON.parse(read("package.json")) as { allowScripts: Record<string, boolean> })
  .allowScripts;

/** The names of the locked dependencies that have an install script (the project's own left out). */
const withInstallScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)),
  ),
].sort();

it("finds the install scripts in the lockfile (so an empty list cannot pass)", () => {
  expect(withInstallScripts).toContain("esbuild");
});

it("covers every dependency install script in allowScripts, and nothing else", () => {
  expect(Object.keys(allowScripts).sort()).toEqual(withInstallScripts);
});

it("names each allowScripts entry in the README", () => {
  const readme = read("README.md");
  for (const name of Object.keys(allowScripts)) expect(readme).toContain(`\`${name}\``);
});
