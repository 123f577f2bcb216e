/** `npm run load -- FILE --endpoint URL --table NAME` on a fresh local engine creates and loads NAME. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { verifyDirectory } from "../../lib/store/dynamo/verify.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { FIRST } from "../store/dynamo/verify-fixture.js";
import { runLoader } from "./loader-process.js";

let engine: Engine | undefined;
let dir = "";

beforeAll(async () => {
  engine = await startDynalite();
  dir = await mkdtemp(join(tmpdir(), "load-table-"));
});
afterAll(async () => {
  await engine?.stop();
  await rm(dir, { recursive: true, force: true });
});

it("a load into a table that does not exist yet on a local engine creates it under that name", async () => {
  if (!engine) throw new Error("no engine");
  const file = join(dir, "data.json");
  await writeFile(file, JSON.stringify(FIRST));
  const exit = await runLoader({ file, mode: "snapshot", endpoint: engine.endpoint, table: "partners-copy" });
  expect({ code: exit.code, stderr: exit.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const report = await verifyDirectory(documentClientFor(engine.client()), "partners-copy");
  expect(report).toMatchObject({ committed: 1, records: FIRST.employees.length });
  expect(report.problem).toBeUndefined();
});
