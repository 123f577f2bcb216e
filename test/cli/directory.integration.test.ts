/** `npm run directory` as an operator runs it, against a dynalite engine started here. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { TYPESCRIPT_NODE_OPTIONS } from "../../lib/cli/typescript-node.js";
import { toApiEmployee } from "../../lib/directory/derive.js";
import { LOCAL_TABLE_NAMES } from "../../lib/local/config.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { employmentOrder } from "../../lib/store/dynamo/model/items.js";
import { companyPartition, entrySort, FAMILY, gramCensusSort } from "../../lib/store/dynamo/model/layout.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { E1, E2, E3, E4, loadTwice, P1, P2, P3, recordOf } from "../store/dynamo/verify-fixture.js";
import { tableItems } from "../support/table-items.js";

const run = promisify(execFile);
let engine: Engine | undefined;
const endpoint = () => {
  if (!engine) throw new Error("no engine");
  return engine.endpoint;
};
const cli = (args: string[]) =>
  run(process.execPath, [
    ...TYPESCRIPT_NODE_OPTIONS,
    "lib/cli/directory.ts",
    ...args,
    "--endpoint",
    endpoint(),
  ]);

beforeAll(async () => {
  engine = await startDynalite();
  const client = engine.client();
  await createTables(client, LOCAL_TABLE_NAMES);
  await loadTwice(documentClientFor(client), LOCAL_TABLE_NAMES.directory);
});

afterAll(async () => {
  await engine?.stop();
});

describe("npm run directory", () => {
  it("prints its usage on --help and exits 0", async () => {
    const { stdout } = await cli(["--help"]);
    expect(stdout).toContain("usage: npm run directory -- COMMAND");
  });

  it("refuses a bad call with one line and the usage, exit 2", async () => {
    await expect(cli(["get", "employee", "not-a-uuid"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^directory: ID must be a uuid\n\nusage: /),
    });
    await expect(cli(["frobnicate"])).rejects.toMatchObject({ code: 2 });
  });

  /** The instant the search answered at, from the line on stderr that says so. */
  const asOfOf = (stderr: string) =>
    new Date(/ at (\S+), to a key reading every company/.exec(stderr)?.[1] ?? "");

  it("gets an employee record as a search returns it now, and says so when there is none (exit 1)", async () => {
    const { stdout, stderr } = await cli(["get", "employee", E1]);
    const asOf = asOfOf(stderr);
    expect(stderr).toBe(
      `employee record ${E1} as a search returns it at ${asOf.toISOString()}, to a key reading every company (--stored: as stored)\n`,
    );
    expect(JSON.parse(stdout)).toEqual(toApiEmployee(recordOf(E1), { asOf }));
    // A record with no person is found too: the search is bounded by its own createdAt.
    const unlinked = await cli(["get", "employee", E4]);
    expect(JSON.parse(unlinked.stdout)).toEqual(
      toApiEmployee(recordOf(E4), { asOf: asOfOf(unlinked.stderr) }),
    );
    await expect(cli(["get", "employee", "00000000-0000-4000-8000-000000000000"])).rejects.toMatchObject({
      code: 1,
      stderr: "no employee record 00000000-0000-4000-8000-000000000000 in the directory\n",
    });
  });

  it("gets the stored source record with --stored", async () => {
    const { stdout } = await cli(["get", "employee", E1, "--stored"]);
    expect(JSON.parse(stdout)).toEqual({
      committed: 2,
      stored: { companyId: "acme", generation: 1 },
      record: recordOf(E1),
    });
    await expect(cli(["company", "acme", "--stored"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^directory: --stored goes with get employee or get person\n/),
    });
  });

  it("gets a person with every employment as a search returns them; one with no records, no search returns", async () => {
    const { stdout, stderr } = await cli(["get", "person", P3]);
    const asOf = asOfOf(stderr);
    const e3 = toApiEmployee(recordOf(E3), { asOf });
    expect(JSON.parse(stdout)).toEqual({
      id: P3,
      employments: [e3],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const both = await cli(["get", "person", P1]);
    const at = asOfOf(both.stderr);
    expect((JSON.parse(both.stdout) as { employments: unknown[] }).employments).toEqual(
      [E1, E2].map((id) => toApiEmployee(recordOf(id), { asOf: at })),
    );
    // E3 moved from P2 to P3: P2 is stored with no records.
    await expect(cli(["get", "person", P2])).rejects.toMatchObject({
      code: 1,
      stderr: `person ${P2} is stored with no employee records, so no search returns them (--stored shows the person)\n`,
    });
    const stored = JSON.parse((await cli(["get", "person", P2, "--stored"])).stdout) as Record<
      string,
      unknown
    >;
    expect(stored).toMatchObject({ person: { id: P2 }, employees: [] });
  });

  it("verify exits 0 with a summary, and 1 naming the item once one is broken", async () => {
    const { stdout } = await cli(["verify"]);
    expect(stdout).toMatch(/^ok: generation 2, the whole table: 4 records, 3 persons/);
    if (!engine) throw new Error("no engine");
    const key = {
      p: companyPartition("acme"),
      s: entrySort(FAMILY.employmentKey, employmentOrder(recordOf(E1)), 1),
    };
    await tableItems(documentClientFor(engine.client()), LOCAL_TABLE_NAMES.directory).remove(key);
    const record = Buffer.from(entrySort(FAMILY.record, employmentOrder(recordOf(E1)), 1)).toString("hex");
    await expect(cli(["verify", "--company", "acme"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `p=${Buffer.from("acme").toString("hex")} s=${record}: no employment key entry`,
      ),
    });
    await expect(cli(["verify", "--company", "beta"])).resolves.toMatchObject({
      stdout: expect.stringContaining("ok: generation 2, company beta"),
    });
  });

  it("repair rebuilds a company's damaged census as a load, and verify passes again", async () => {
    if (!engine) throw new Error("no engine");
    const items = tableItems(documentClientFor(engine.client()), LOCAL_TABLE_NAMES.directory);
    // beta's census, written by the first load: deleted, its marker left alone.
    await items.remove({ p: companyPartition("beta"), s: gramCensusSort(1, 0) });
    await expect(cli(["verify", "--company", "beta"])).rejects.toMatchObject({ code: 1 });
    const { stdout } = await cli(["repair", "--company", "beta"]);
    expect(stdout).toMatch(
      /^repaired: entries, orders, name postings and kept scopes of 1 companies rebuilt\nnot rebuilt/,
    );
    await expect(cli(["verify", "--company", "beta"])).resolves.toMatchObject({
      stdout: expect.stringContaining("ok: generation 3, company beta"),
    });
  });
});
