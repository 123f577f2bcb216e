/**
 * One load at a time (docs/data-format.md, "Keeping the directory current"): a second load is
 * refused naming when the running one started, and changes nothing; the lease of a load that died
 * expires, and the next load takes it over, undoing the dead load's writes.
 */

import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { type Item, keyOf, keyText } from "../../lib/store/dynamo/model/batch.js";
import { MANIFEST_KEY } from "../../lib/store/dynamo/model/layout.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import { LoadInProgressError } from "../../lib/store/port.js";
import { describeEachEngine, type EngineContext } from "../support/engines.js";
import { fakeWatch } from "../support/lease-watch.js";
import { tableItems } from "../support/table-items.js";
import {
  changes,
  type Directory,
  deleteEmployee,
  describeEachStore,
  E,
  employee,
  employeeIds,
  load,
  merge,
  ndjson,
  P,
  parsedChanges,
  person,
  seen,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

const PERSONS = [person(1), person(2)];
const RECORDS = [
  employee(1, { personId: P(1) }),
  employee(2, { personId: P(2), companyId: "beta" }),
  employee(3),
];

/** What the dead load was applying: a rename, a delete, a new person and record. */
const DEAD_FILE = [
  upsertEmployee(employee(1, { personId: P(1), lastName: "Okafor" })),
  deleteEmployee(E(2)),
  upsertPerson(person(9)),
  upsertEmployee(employee(9, { personId: P(9), companyId: "gamma" })),
];

async function refusal(attempt: Promise<unknown>): Promise<LoadInProgressError> {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LoadInProgressError);
  return error as LoadInProgressError;
}

describeEachStore("one load at a time", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), PERSONS, RECORDS);
  });

  it("a second load while one holds the lease is refused, naming when the first started, and changes nothing", async () => {
    const before = await seen(directory());
    const from = Date.now();
    const running = await directory().beginLoad("the first load");
    const to = Date.now();
    await running.apply(await parsedChanges(DEAD_FILE.slice(0, 2)));

    const second = await refusal(changes(directory(), [upsertEmployee(employee(8))]));
    expect(second.label).toBe("the first load");
    expect(second.startedAt).toBeGreaterThanOrEqual(from);
    expect(second.startedAt).toBeLessThanOrEqual(to);
    expect(second.message).toContain(`the first load, started ${new Date(second.startedAt).toISOString()}`);
    await refusal(directory().beginLoad("a third"));
    // Neither the refused load nor the running one's pending writes are seen.
    expect(await seen(directory())).toEqual(before);

    await running.abort();
    expect(await seen(directory())).toEqual(before);
    await changes(directory(), [upsertEmployee(employee(8))]);
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(3), E(8)]);
  });
});

describeEachEngine("a dead load's lease", (getEngine) => {
  const TTL_MS = 60_000;
  let clock = Date.parse("2026-05-01T09:00:00Z");
  /** A directory on the suite's table whose leases follow `clock`, and never renew by themselves. */
  const directoryAt = (context: EngineContext): Directory =>
    dynamoDirectory(documentClientFor(context.client), context.tables.directory, {
      reader: { manifestTtlMs: 0 },
      writer: {
        graceMs: 0,
        leaseTtlMs: TTL_MS,
        renewEveryMs: 3_600_000,
        now: () => clock,
        leaseWatch: fakeWatch(),
      },
    });
  const table = () => tableItems(documentClientFor(getEngine().client), getEngine().tables.directory);

  /** Starts a load, applies part of a file and dies (its process killed: no abort, no renewal). */
  async function deadLoad(directory: Directory) {
    const dead = await directory.beginLoad("changes dead.ndjson");
    await dead.apply(await parsedChanges(DEAD_FILE.slice(0, 3)));
    return clock;
  }

  beforeEach(async () => {
    await table().wipe();
    await merge(directoryAt(getEngine()), PERSONS, RECORDS);
  });

  it("is refused until it expires, then taken over by the next load, which undoes the dead writes", async () => {
    const directory = directoryAt(getEngine());
    const before = await seen(directory);
    const startedAt = await deadLoad(directory);
    expect(await seen(directory)).toEqual(before);

    clock += TTL_MS - 1;
    const early = await refusal(changes(directory, [upsertEmployee(employee(8))]));
    expect(early.message).toContain(`started ${new Date(startedAt).toISOString()}`);
    expect(early.message).toContain(`its lease expires at ${new Date(startedAt + TTL_MS).toISOString()}`);
    expect(await seen(directory)).toEqual(before);

    clock += 2;
    await changes(directory, [upsertEmployee(employee(8))]);
    const afterTakeover = await table().all();
    // None of the dead load's writes remain: the same as the one load on a table it never touched.
    const reference = memoryDirectory();
    await merge(reference, PERSONS, RECORDS);
    await changes(reference, [upsertEmployee(employee(8))]);
    expect(await seen(directory)).toEqual(await seen(reference));

    // A load that gave up before writing gives its generation back: the next load writes it, and
    // the table is the one of the two loads alone.
    await table().wipe();
    await merge(directory, PERSONS, RECORDS);
    await changes(directory, [upsertEmployee(employee(8))]);
    const twoLoads = withoutManifest(await table().all());
    await table().wipe();
    await merge(directory, PERSONS, RECORDS);
    await (await directory.beginLoad("gives up")).abort();
    await changes(directory, [upsertEmployee(employee(8))]);
    expect(withoutManifest(await table().all())).toEqual(twoLoads);
    expect(withoutManifest(afterTakeover)).not.toEqual(twoLoads);
  });

  it("running the dead load's file again completes it", async () => {
    const directory = directoryAt(getEngine());
    await deadLoad(directory);
    clock += TTL_MS + 1;
    await load(directory, "changes", ndjson(DEAD_FILE));
    const reference = memoryDirectory();
    await merge(reference, PERSONS, RECORDS);
    await changes(reference, DEAD_FILE);
    expect(await seen(directory)).toEqual(await seen(reference));
    expect(await employeeIds(directory, "gamma")).toEqual([E(9)]);
  });
});

/** The items by key, but the manifest (which counts generations). */
/**
 * The items but the manifest and journals: the undo of a taken-over load keeps its last journal
 * entry (its loader may still be sending that entry's writes), where a load that gave up leaves none.
 */
const withoutManifest = (items: Item[]) =>
  new Map(
    items
      .map((item) => [keyText(keyOf(item)), item] as const)
      .filter(([, item]) => !Buffer.from(keyOf(item).p).equals(MANIFEST_KEY.p) && keyOf(item).p[0] !== 0xfe)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
