/**
 * What loads leave in the DynamoDB table, scanned whole: a file loaded N times leaves what one load
 * leaves, a re-run that changes nothing writes nothing but its lease and publishes nothing, and a
 * refused or interrupted load leaves the table exactly as it was (docs/data-model.md,
 * docs/data-format.md).
 */

import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { thisProcess } from "../../lib/store/dynamo/manifest/lease-holder.js";
import type { Item } from "../../lib/store/dynamo/model/batch.js";
import { keyOf, keyText } from "../../lib/store/dynamo/model/batch.js";
import { MANIFEST_KEY } from "../../lib/store/dynamo/model/layout.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";
import { directoryOn } from "../support/directory-store.js";
import { describeEachEngine, type EngineContext, itByTurns, TURN_SEED } from "../support/engines.js";
import { tableItems } from "../support/table-items.js";
import {
  dataText,
  deleteEmployee,
  deletePerson,
  E,
  employee,
  load,
  merge,
  ndjson,
  P,
  person,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

const PERSONS = [person(1), person(2), person(3)];
const RECORDS = [
  employee(1, { personId: P(1) }),
  employee(2, { personId: P(2), companyId: "beta" }),
  employee(3, { personId: P(3), companyId: "gamma" }),
  employee(4),
];

/** Per mode, a file that renames, moves, re-links, adds and (but for merge) deletes. */
const FILES = [
  {
    mode: "merge",
    text: dataText(
      [person(1, "2023-01-01T00:00:00Z"), person(5)],
      [
        employee(1, { personId: P(1), lastName: "Okafor" }),
        employee(2, { personId: P(1), companyId: "gamma" }),
        employee(5, { personId: P(5), companyId: "beta" }),
      ],
    ),
  },
  {
    mode: "snapshot",
    text: dataText(
      [person(1), person(2)],
      [
        employee(1, { personId: P(2), phone: "555 300 0009" }),
        employee(2, { personId: P(2), companyId: "beta" }),
      ],
    ),
  },
  {
    mode: "changes",
    text: ndjson([
      upsertEmployee(employee(3, { personId: P(1), companyId: "acme" })),
      deletePerson(P(3)),
      deleteEmployee(E(4)),
      upsertPerson(person(6)),
      upsertEmployee(employee(6, { personId: P(6) })),
      deleteEmployee(E(99)),
    ]),
  },
] as const;

const isManifest = (item: Item) => Buffer.from(keyOf(item).p).equals(MANIFEST_KEY.p);
const withoutGenerations = ({ issued: _, abandoned: __, abandonedBy: ___, ...item }: Item) => item;

describeEachEngine(`load storage (TURN_SEED=${TURN_SEED})`, (getEngine, engineName) => {
  const it = itByTurns(TURN_SEED, engineName);
  const table = () => tableItems(documentClientFor(getEngine().client), getEngine().tables.directory);
  /**
   * Every item but the manifest, by key; with it, less the generations given out (`issued`, and
   * `abandoned` with its holders: a load undone after it wrote abandons its generation).
   */
  const stored = async (options: { manifest?: boolean } = {}) =>
    new Map(
      (await table().all())
        .filter((item) => options.manifest || !isManifest(item))
        .map((item) => [keyText(keyOf(item)), isManifest(item) ? withoutGenerations(item) : item] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );

  beforeEach(async () => {
    await table().wipe();
    await merge(directoryOn(getEngine()), PERSONS, RECORDS);
  });

  for (const { mode, text } of FILES)
    it(`a ${mode} file loaded three times leaves exactly the items one load leaves`, async () => {
      const directory = directoryOn(getEngine());
      await load(directory, mode, text);
      const once = await stored();
      await load(directory, mode, text);
      await load(directory, mode, text);
      const thrice = await stored();
      expect([...thrice.keys()]).toEqual([...once.keys()]);
      expect(thrice).toEqual(once);
    });

  for (const { mode, text } of FILES)
    it(`re-running a ${mode} file that changes nothing writes nothing but its lease, and publishes nothing`, async () => {
      await load(directoryOn(getEngine()), mode, text);
      const published = await table().get(MANIFEST_KEY);
      const writes = recordWrites(getEngine());
      await load(writes.directory, mode, text);
      expect(writes.seen.length).toBeGreaterThan(0); // the lease, taken and released
      for (const write of writes.seen)
        expect(write).toEqual({ command: "UpdateItemCommand", manifest: true });
      const after = await table().get(MANIFEST_KEY);
      expect([after.committed, after.committedAt]).toEqual([published.committed, published.committedAt]);
      expect(after.lease).toBeUndefined();
    });

  it("a refused load leaves every item as it was, the manifest included", async () => {
    const before = await stored({ manifest: true });
    // Written a change at a time before the dangling link is found at the end.
    const lines = [upsertEmployee(employee(7, { personId: P(2) })), deleteEmployee(E(1)), deletePerson(P(2))];
    await expect(
      load(directoryOn(getEngine()), "changes", ndjson(lines), { changesPerApply: 1 }),
    ).rejects.toThrow(`names person ${P(2)}`);
    expect(await stored({ manifest: true })).toEqual(before);
    // Its generation is abandoned, naming this process: it leaves the list once that is gone.
    const { abandoned, abandonedBy, issued } = await table().get(MANIFEST_KEY);
    expect(abandoned).toEqual([issued]);
    expect(abandonedBy).toEqual({ [String(issued)]: thisProcess() });
  });

  it("an interrupted load leaves every item as it was, the manifest included", async () => {
    const before = await stored({ manifest: true });
    const interrupt = new AbortController();
    const attempt = load(directoryOn(getEngine()), "changes", FILES[2].text, {
      changesPerApply: 1,
      signal: interrupt.signal,
      onProgress: ({ phase, changes }) => {
        if (phase === "applied" && changes === 3) interrupt.abort(new Error("interrupted"));
      },
    });
    await expect(attempt).rejects.toThrow("interrupted");
    expect(await stored({ manifest: true })).toEqual(before);
  });
});

/** A directory on its own client that notes each write request: its command, and whether it is the manifest's. */
function recordWrites(context: EngineContext) {
  const client = context.engine.client();
  const seen: { command: string; manifest: boolean }[] = [];
  client.middlewareStack.add(
    (next, handlerContext) => async (args) => {
      const command = String(handlerContext.commandName);
      if (!/^(Get|BatchGet|Query|Scan)/.test(command)) {
        // Marshalled ({B: bytes}) or not yet, depending on where the document client's step runs.
        const value = (args.input as { Key?: Record<string, unknown> }).Key?.[A.partition];
        const partition = value instanceof Uint8Array ? value : (value as { B?: Uint8Array } | undefined)?.B;
        seen.push({
          command,
          manifest: partition !== undefined && Buffer.from(partition).equals(MANIFEST_KEY.p),
        });
      }
      return next(args);
    },
    { step: "initialize", name: "recordWrites" },
  );
  const directory = dynamoDirectory(documentClientFor(client), context.tables.directory, {
    reader: { manifestTtlMs: 0 },
    writer: { graceMs: 0 },
  });
  return { directory, seen };
}
