/**
 * `npm run load` as a process (docs/data-format.md, "Keeping the directory current"), against a
 * dynalite engine started here: exit 0 and a summary when the file is applied; exit 1 with
 * "refused, nothing changed: …" for a malformed file, a dangling link or a held lease; exit 2 for a
 * bad call. test/cli/commands.integration.test.ts covers what every tool shares (help, unknown options).
 */
import { execFileSync } from "node:child_process";
import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { readManifest } from "../../lib/store/dynamo/manifest/manifest.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { runTool, STACK_FRAME } from "../cli/run-tool.js";
import {
  dataText,
  deletePerson,
  E,
  employee,
  employeeIds,
  fileWith,
  ndjson,
  P,
  person,
  personsFound,
  seen,
  snapshot,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

let engine: Engine | undefined;
const running = () => {
  if (!engine) throw new Error("no engine: setup failed");
  return engine;
};
const loadCli = (file: string, ...args: string[]) =>
  runTool("lib/cli/load.ts", [file, ...args, "--endpoint", running().endpoint]);
const directory = () => {
  const documents = documentClientFor(running().client());
  return {
    documents,
    ...dynamoDirectory(documents, LOCAL_TABLE_NAMES.directory, {
      reader: { manifestTtlMs: 0 },
      writer: { graceMs: 0 },
    }),
  };
};
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** stderr's last line: progress lines come before it. */
const lastLine = (stderr: string) => stderr.trimEnd().split("\n").at(-1);

beforeAll(async () => {
  engine = await startDynalite();
  await createTables(running().client(), LOCAL_TABLE_NAMES);
});

afterAll(async () => {
  await engine?.stop();
});

describe("npm run load against a running engine", () => {
  beforeEach(async () => {
    // Each test starts from the same directory: P1 with E1, P2 with E2, at acme.
    await snapshot(
      directory(),
      [person(1), person(2)],
      [employee(1, { personId: P(1) }), employee(2, { personId: P(2) })],
    );
  });

  it("refuses a snapshot deleting more than 10% with the count and the flag, exit 1, nothing changed", async () => {
    const before = await seen(directory());
    const file = await fileWith(dataText([person(1), person(2)], [employee(1, { personId: P(1) })]));
    const { code, stdout, stderr } = await loadCli(file, "--mode", "snapshot");
    expect({ code, stdout, last: lastLine(stderr) }).toEqual({
      code: 1,
      stdout: "",
      last:
        "load: refused, nothing changed: snapshot: would delete 1 of the 2 stored employee records, " +
        "more than 10%; to allow it, load with --allow-shrink (an inbox object: metadata allow-shrink=true)",
    });
    expect(await seen(directory())).toEqual(before);
    const merge = await loadCli(file, "--allow-shrink");
    expect({ code: merge.code, line: merge.stderr.split("\n")[0] }).toEqual({
      code: 2,
      line: "load: --allow-shrink applies to --mode snapshot",
    });
  });

  it("applies a snapshot allowed to shrink: exit 0, one summary line counting the stored ids it deleted", async () => {
    const file = await fileWith(dataText([person(1)], [employee(1, { personId: P(1), lastName: "Okafor" })]));
    const { code, stdout, stderr } = await loadCli(file, "--mode", "snapshot", "--allow-shrink");
    expect({ code, stderr: stderr.split("\n")[0] }).toEqual({ code: 0, stderr: "validated: 2 in the file" });
    expect(stdout).toMatch(
      new RegExp(
        `^applied ${file} \\(snapshot\\): 2 in the file, 1 changed, 2 stored ids absent from it deleted, in \\d+\\.\\d s\\n$`,
      ),
    );
    expect(await employeeIds(directory(), "acme", { lastName: "okafor" })).toEqual([E(1)]);
    expect(await employeeIds(directory(), "acme")).toEqual([E(1)]);
  });

  it("applies a changes file: exit 0, one summary line, and searches see it", async () => {
    const file = await fileWith(
      ndjson([upsertPerson(person(3)), upsertEmployee(employee(3, { personId: P(3), companyId: "beta" }))]),
    );
    const { code, stdout } = await loadCli(file, "--mode", "changes");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^applied ${file} \\(changes\\): 2 in the file, 2 changed, in \\d+\\.\\d s\\n$`),
    );
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(2)]);
    expect(await personsFound(directory(), ["beta"])).toEqual([{ id: P(3), employments: [E(3)] }]);
  });

  it("loads a file whose first line is a change line as a changes file, saying so; --mode still chooses", async () => {
    const lines = [
      upsertPerson(person(3)),
      upsertEmployee(employee(3, { personId: P(3), companyId: "beta" })),
    ];
    const file = await fileWith(ndjson(lines));
    const before = await seen(directory());
    for (const mode of ["merge", "snapshot"]) {
      const refused = await loadCli(file, "--mode", mode);
      expect({ code: refused.code, last: lastLine(refused.stderr) }).toEqual({
        code: 1,
        last:
          'load: refused, nothing changed: line 1: expected an object with one key, "person" or "employee"; ' +
          'it is a change line ("op"): load a changes file with --mode changes',
      });
    }
    expect(await seen(directory())).toEqual(before);
    const { code, stdout, stderr } = await loadCli(file);
    expect(code).toBe(0);
    expect(stderr.split("\n")[0]).toBe(
      `treating ${file} as a changes file (its first line is a change line); give --mode to choose`,
    );
    expect(stdout).toMatch(new RegExp(`^applied ${escaped(file)} \\(changes\\): 2 in the file, 2 changed`));
    expect(await personsFound(directory(), ["beta"])).toEqual([{ id: P(3), employments: [E(3)] }]);
  });

  it("loads a file whose first line is a record in merge, saying nothing of its mode", async () => {
    const file = await fileWith(ndjson([{ person: person(3) }]));
    const { code, stdout, stderr } = await loadCli(file);
    expect(code).toBe(0);
    expect(stderr).not.toContain("treating");
    expect(stdout).toMatch(new RegExp(`^applied ${escaped(file)} \\(merge\\): 1 in the file`));
  });

  it("prints a file's field name and a missing file's name with their controls escaped", async () => {
    const hostile = "x\x1b[2J\r\x07\u202e";
    const file = await fileWith(ndjson([{ person: { ...person(3), [hostile]: 1 } }]));
    const refused = await loadCli(file);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.stderr)).toContain("x\\u001b[2J\\u000d\\u0007\\u202e");
    const missing = await loadCli(`${file}${hostile}`);
    expect(missing.code).toBe(1);
    for (const { stderr } of [refused, missing]) {
      expect(stderr.replaceAll("\n", "")).not.toMatch(/\p{Cc}|\u202e/u);
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("refuses a malformed file naming the line and the field, exit 1, nothing changed", async () => {
    const before = await seen(directory());
    const file = await fileWith(
      ndjson([upsertEmployee(employee(4)), { op: "upsert", employee: { ...employee(5), companyId: "a b" } }]),
    );
    const { code, stdout, stderr } = await loadCli(file, "--mode", "changes");
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr).toBe(
      `load: refused, nothing changed: employee at line 2 (id ${E(5)}): companyId: ` +
        "expected company id: 1-128 letters, digits, '-', '_' or '.'\n",
    );
    expect(await seen(directory())).toEqual(before);
  });

  it("refuses a file that leaves a dangling link, naming the person and the record, exit 1, nothing changed", async () => {
    const before = await seen(directory());
    const file = await fileWith(ndjson([upsertEmployee(employee(6)), deletePerson(P(2))]));
    const { code, stdout, stderr } = await loadCli(file, "--mode", "changes");
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(lastLine(stderr)).toBe(
      `load: refused, nothing changed: employee ${E(2)}: personId: names person ${P(2)}, which would not exist after this load`,
    );
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(await seen(directory())).toEqual(before);
  });

  it("refuses while another load holds the lease, naming when it started, exit 1, nothing changed", async () => {
    const held = directory();
    const before = await seen(held);
    const session = await held.beginLoad("merge held.json");
    try {
      const lease = (await readManifest(held.documents, LOCAL_TABLE_NAMES.directory)).lease;
      const file = await fileWith(dataText([], [employee(7)]));
      const { code, stdout, stderr } = await loadCli(file);
      expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
      expect(lastLine(stderr)).toMatch(
        new RegExp(
          `^load: refused, nothing changed: another load is running \\(merge held\\.json, started ${new Date(
            lease?.startedAt ?? Number.NaN,
          ).toISOString()}\\); if it died, its lease expires at `,
        ),
      );
    } finally {
      await session.abort();
    }
    expect(await seen(held)).toEqual(before);
  });

  it("refuses at once a FIFO, a device and a file with a 3 MB line: one line each, exit 1, nothing changed", async () => {
    const before = await seen(directory());
    const text = await fileWith(`${ndjson([upsertEmployee(employee(8))])}${"x".repeat(3_000_000)}\n`);
    const fifo = `${text}.fifo`;
    execFileSync("mkfifo", [fifo]);
    const expected = {
      [fifo]: `${fifo}: is a FIFO (named pipe), not a regular file; give a file`,
      "/dev/zero": "/dev/zero: is a device, not a regular file; give a file",
      [text]: "line 2: longer than 1 MiB (1,048,576 bytes); a line holds one record or change",
    };
    for (const [file, reason] of Object.entries(expected)) {
      const { code, stdout, stderr } = await loadCli(file, "--mode", "changes");
      expect({ code, stdout, stderr }).toEqual({
        code: 1,
        stdout: "",
        stderr: expect.stringMatching(new RegExp(`load: refused, nothing changed: ${escaped(reason)}\\n$`)),
      });
    }
    expect(await seen(directory())).toEqual(before);
  });

  it("refuses a bad call with one line and the usage, exit 2", async () => {
    const file = await fileWith(dataText([], []));
    const { code, stdout, stderr } = await loadCli(file, "--mode", "sideways");
    const [line, blank, usage] = stderr.split("\n");
    expect({ code, stdout, blank }).toEqual({ code: 2, stdout: "", blank: "" });
    expect(line).toMatch(/^load: .*--mode.*sideways/);
    expect(usage).toMatch(/^usage: npm run load -- FILE/);
  });
});
