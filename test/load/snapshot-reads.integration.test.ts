/**
 * A snapshot's deletes cost what it drops, not the table: the stored ids come from the id index
 * (one small entry an id, nothing else read, no Scan), and deleting the ids a file lacks reads the
 * same items whether the table holds 10 other records or 200. Counted by a middleware on the
 * document client: the items each read returns or, for a Query or Scan, reads.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoDirectory } from "../../lib/store/dynamo/index.js";
import { documentClientFor } from "../../lib/store/dynamo-client.js";
import type { LoadSession } from "../../lib/store/port.js";
import { describeEachEngine, itByTurns, TURN_SEED } from "../support/engines.js";
import { tableItems } from "../support/table-items.js";
import {
  deleteEmployee,
  deletePerson,
  E,
  employee,
  merge,
  P,
  parsedChanges,
  person,
} from "./load-harness.js";

interface Reads {
  /** Items read, by command. */
  readonly items: Map<string, number>;
  /** The partitions Queried, as hex. */
  readonly partitions: string[];
}

const itemsOf = (output: Record<string, unknown>): number => {
  if (typeof output.ScannedCount === "number") return output.ScannedCount;
  if (output.Responses && typeof output.Responses === "object")
    return Object.values(output.Responses as Record<string, unknown[]>).reduce(
      (n, items) => n + items.length,
      0,
    );
  return output.Item ? 1 : 0;
};

/** Counts every read `documents` makes while `reads` is set. */
function counting(documents: DynamoDBDocumentClient) {
  let reads: Reads | undefined;
  documents.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (reads) {
        const command = context.commandName ?? "?";
        const items = itemsOf(result.output as Record<string, unknown>);
        reads.items.set(command, (reads.items.get(command) ?? 0) + items);
        const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
        const p = input.ExpressionAttributeValues?.[":p"];
        if (command === "QueryCommand" && p instanceof Uint8Array)
          reads.partitions.push(Buffer.from(p).toString("hex"));
      }
      return result;
    },
    { step: "initialize" },
  );
  return async <T>(work: () => Promise<T>): Promise<{ result: T; reads: Reads }> => {
    reads = { items: new Map(), partitions: [] };
    try {
      const result = await work();
      return { result, reads };
    } finally {
      reads = undefined;
    }
  };
}

const minutes = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();

/** Persons 1 to 3 with a record each (dropped), person 4 with none (dropped), and `others` kept. */
function directoryOf(others: number) {
  const dropped = [1, 2, 3];
  const persons = [...dropped, 4].map((n) => person(n, minutes(n)));
  const records = dropped.map((n) =>
    employee(n, { personId: P(n), createdAt: minutes(n), firstName: "Ada", lastName: "Moss" }),
  );
  for (let i = 100; i < 100 + others; i += 1) {
    persons.push(person(i, minutes(i)));
    records.push(
      employee(i, {
        personId: P(i),
        companyId: i % 2 ? "acme" : "beta",
        createdAt: minutes(i),
        firstName: `Name${i}`,
        lastName: "Park",
        phone: `(555) 300-${String(i).padStart(4, "0")}`,
      }),
    );
  }
  return {
    persons,
    records,
    drops: [...dropped.map((n) => deleteEmployee(E(n))), ...[...dropped, 4].map((n) => deletePerson(P(n)))],
  };
}

async function allIds(session: LoadSession, kind: "person" | "employee") {
  const ids: string[] = [];
  for await (const page of session.storedIds(kind)) ids.push(...page.ids);
  return ids.sort();
}

describeEachEngine(
  `a snapshot's stored ids and deletes read what they drop (TURN_SEED=${TURN_SEED})`,
  (getEngine, engineName) => {
    const it = itByTurns(TURN_SEED, engineName);
    const documents = () => documentClientFor(getEngine().client);
    const table = () => getEngine().tables.directory;

    /** On a table holding `others` more records: the stored ids read, and the reads of the deletes. */
    async function run(others: number) {
      const client = documents();
      await tableItems(client, table()).wipe();
      const directory = dynamoDirectory(client, table(), { writer: { graceMs: 0 } });
      const { persons, records, drops } = directoryOf(others);
      await merge(directory, persons, records);
      const stored = (await tableItems(client, table()).all()).length;
      const measure = counting(client);
      const session = await directory.beginLoad("snapshot reads");
      try {
        const ids = await measure(async () => ({
          person: await allIds(session, "person"),
          employee: await allIds(session, "employee"),
        }));
        const changes = await parsedChanges(drops);
        const deletes = await measure(() => session.apply(changes));
        const after = {
          person: await allIds(session, "person"),
          employee: await allIds(session, "employee"),
        };
        return { persons, records, stored, ids, deletes, after };
      } finally {
        await session.abort();
      }
    }

    it("reads the stored ids from the id index only, and deletes reading the same items at any table size", async () => {
      const small = await run(10);
      const big = await run(200);
      for (const { persons, records, stored, ids, after } of [small, big]) {
        expect(ids.result.person).toEqual(persons.map(({ id }) => id).sort());
        expect(ids.result.employee).toEqual(records.map(({ id }) => id).sort());
        // One entry an id is read, and nothing else: no Scan, only the id index's partitions.
        expect([...ids.reads.items.keys()]).toEqual(["QueryCommand"]);
        expect(ids.reads.items.get("QueryCommand")).toBe(persons.length + records.length);
        expect(ids.reads.partitions.every((p) => p.startsWith("fb"))).toBe(true);
        expect(stored).toBeGreaterThan(5 * (persons.length + records.length));
        // The load sees its own deletes.
        const dropped = new Set([1, 2, 3, 4].map(P).concat([1, 2, 3].map(E)));
        expect(after.person).toEqual(ids.result.person.filter((id) => !dropped.has(id)));
        expect(after.employee).toEqual(ids.result.employee.filter((id) => !dropped.has(id)));
      }
      expect(small.deletes.result).toBe(7);
      expect(big.deletes.reads.items.has("ScanCommand")).toBe(false);
      // Calls go out in parallel: compared in no particular order.
      const sorted = ({ items, partitions }: Reads) => ({
        items: [...items].sort(),
        partitions: [...partitions].sort(),
      });
      expect(sorted(big.deletes.reads)).toEqual(sorted(small.deletes.reads));
    });
  },
);
