/**
 * `npm run load -- FILE --endpoint URL --table NAME` loads into NAME when it exists, and refuses a
 * name that is not there (a typo) without creating anything.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { createTables } from "../../lib/store/create-tables.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { FIRST } from "../store/dynamo/verify-fixture.js";
import { runLoader } from "./loader-process.js";

let engine: Engine;
let dir = "";
let file = "";

beforeAll(async () => {
  engine = await startDynalite();
  dir = await mkdtemp(join(tmpdir(), "load-table-"));
  file = join(dir, "data.json");
  await writeFile(file, JSON.stringify(FIRST));
});
afterAll(async () => {
  await engine?.stop();
  await rm(dir, { recursive: true, force: true });
});

const tableNames = async () => (await engine.client().send(new ListTablesCommand({}))).TableNames;

it("refuses a table that does not exist, naming the tables there, and creates nothing", async () => {
  const exit = await runLoader({ file, mode: "snapshot", endpoint: engine.endpoint, table: "Nope" });
  expect(exit.code).toBe(1);
  expect(exit.stderr).toMatch(
    /^load: refused, nothing changed: --table: no table "Nope"; the engine has no tables\n$/m,
  );
  expect(await tableNames()).toEqual([]);
});

it("loads into an existing table under another name", async () => {
  await createTables(engine.client(), { directory: "partners-copy", keys: "partners-copy-keys" });
  const before = await tableNames();
  const exit = await runLoader({ file, mode: "snapshot", endpoint: engine.endpoint, table: "partners-copy" });
  expect({ code: exit.code, stderr: exit.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(await tableNames()).toEqual(before);
  const report = await verifyDirectory(documentClientFor(engine.client()), "partners-copy");
  expect(report).toMatchObject({ committed: 1, records: FIRST.employees.length });
  expect(report.problem).toBeUndefined();
});
