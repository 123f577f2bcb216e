/**
 * The commit-msg hook (.githooks/commit-msg with commitlint.config.js) and the `prepare` script
 * that turns it on at `npm install`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const TIMEOUT_MS = 120_000;
// npx and git on the PATH, this Node 24 first; git finds no repository above the scratch folder.
const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...inherited } = process.env;
const env = {
  ...inherited,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
  GIT_CEILING_DIRECTORIES: tmpdir(),
};

function run(file: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "commit-msg-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function hook(message: string) {
  const file = join(scratch, "COMMIT_EDITMSG");
  await writeFile(file, message);
  return run(join(ROOT, ".githooks/commit-msg"), [file], ROOT);
}

describe("the commit-msg hook", () => {
  it(
    "accepts a conventional subject of 72 characters with a long body",
    async () => {
      const subject = `fix(load): ${"a".repeat(61)}`;
      expect(subject).toHaveLength(72);
      const outcome = await hook(`${subject}\n\n${"detail ".repeat(30)}\n`);
      expect(outcome).toMatchObject({ code: 0 });
    },
    TIMEOUT_MS,
  );

  it(
    "accepts a subject that starts with a name as it is spelled",
    async () => {
      expect(await hook("feat(local): GET / points to /docs\n")).toMatchObject({ code: 0 });
    },
    TIMEOUT_MS,
  );

  it(
    "refuses a subject of 73 characters, naming the limit",
    async () => {
      const outcome = await hook(`fix(load): ${"a".repeat(62)}\n`);
      expect(outcome.code).not.toBe(0);
      expect(outcome.output).toContain("header must not be longer than 72 characters");
    },
    TIMEOUT_MS,
  );

  it(
    "refuses a subject with no conventional type",
    async () => {
      const outcome = await hook("Re-read mend: the tests share one helper\n");
      expect(outcome.code).not.toBe(0);
      expect(outcome.output).toContain("type may not be empty");
    },
    TIMEOUT_MS,
  );
});

describe("the prepare script", () => {
  const prepare = async () =>
    (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: { prepare: string } })
      .scripts.prepare;

  it(
    "turns the hooks on in a git checkout",
    async () => {
      const repo = join(scratch, "checkout");
      expect((await run("git", ["init", "-q", repo], scratch)).code).toBe(0);
      expect(await run("sh", ["-c", await prepare()], repo)).toMatchObject({ code: 0 });
      const hooksPath = await run("git", ["config", "core.hooksPath"], repo);
      expect(hooksPath.output.trim()).toBe(".githooks");
    },
    TIMEOUT_MS,
  );

  it(
    "does nothing, and does not fail, outside a git checkout",
    async () => {
      const outcome = await run("sh", ["-c", await prepare()], scratch);
      expect(outcome).toMatchObject({ code: 0, output: "" });
    },
    TIMEOUT_MS,
  );
});
