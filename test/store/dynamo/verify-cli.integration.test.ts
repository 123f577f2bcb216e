/** `npm run directory` as an operator runs it, against a dynalite engine started here. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { TYPESCRIPT_NODE_OPTIONS } from "../../../lib/cli/typescript-node.js";
import { LOCAL_TABLE_NAMES } from "../../../lib/local/config.js";
import { type Engine, startDynalite } from "../../../lib/local/engines.js";
import { createTables } from "../../../lib/store/create-tables.js";
import { employmentOrder } from "../../../lib/store/dynamo/model/items.js";
import {
  companyPartition,
  entrySort,
  FAMILY,
  gramCensusSort,
} from "../../../lib/store/dynamo/model/layout.js";
import { documentClientFor } from "../../../lib/store/dynamo-client.js";
import { tableItems } from "../../support/table-items.js";
import { E1, loadTwice, recordOf } from "./verify-fixture.js";

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

  it("gets an employee record as JSON, and says so when there is none (exit 1)", async () => {
    const { stdout } = await cli(["get", "employee", E1]);
    expect(JSON.parse(stdout)).toEqual({
      committed: 2,
      stored: { companyId: "acme", generation: 1 },
      record: recordOf(E1),
    });
    await expect(cli(["get", "employee", "00000000-0000-4000-8000-000000000000"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no employee record 00000000-0000-4000-8000-000000000000"),
    });
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
