/**
 * The reader's answer cache (lib/store/dynamo/read/answer-cache.ts) on both engines, through the port:
 * a search asked again reads nothing but the manifest, once a TTL; a load is seen once the manifest
 * is read again; answers of different scopes never mix; the bound holds; a failed or unaccepted read
 * is never kept. Every reader here has its own client, counted by the benchmark's capacity recorder,
 * and its own clock (`now`), moved by the tests: nothing depends on timing.
 */

import { CapacityRecorder } from "../../../../lib/bench/capacity-recorder.js";
import { loadData } from "../../../../lib/load/load-file.js";
import { instrumentClient } from "../../../../lib/observability/dynamo-capacity.js";
import { dynamoDirectory } from "../../../../lib/store/dynamo/index.js";
import { MANIFEST_TTL_MS, MAX_READ_AGE_MS } from "../../../../lib/store/dynamo/model/timing.js";
import { approximateBytes } from "../../../../lib/store/dynamo/read/answer-cache.js";
import { dynamoDirectoryReader, type ReaderOptions } from "../../../../lib/store/dynamo/read/reader.js";
import { documentClientFor } from "../../../../lib/store/dynamo-client.js";
import type { DirectoryReader, EmployeesQuery, PersonsQuery } from "../../../../lib/store/port.js";
import { describeEachEngine, type EngineContext } from "../../../support/engines.js";
import { dataFileOf, employeeInput, personInput, testUuid } from "../../../support/records.js";

const P1 = testUuid(0x17, 0, 1);
const P2 = testUuid(0x17, 0, 2);
const E1 = testUuid(0x17, 1, 1);
const E2 = testUuid(0x17, 1, 2);
const E3 = testUuid(0x17, 1, 3);
const E4 = testUuid(0x17, 1, 4);
const E5 = testUuid(0x17, 1, 5);
const at = (day: number) => `2024-03-0${day}T00:00:00Z`;
const persons = [personInput(P1, "2024-01-01T00:00:00Z"), personInput(P2, "2024-01-02T00:00:00Z")];
const e1 = { id: E1, companyId: "acme", personId: P1, createdAt: at(1) };
const records = [
  employeeInput({ id: E2, companyId: "beta", personId: P1, createdAt: at(2) }),
  employeeInput({ id: E3, companyId: "acme", personId: P2, createdAt: at(3), lastName: "Okafor" }),
  employeeInput({ id: E4, companyId: "acme", personId: null, createdAt: at(4) }),
];
/** P1 works at acme (E1) and beta (E2); P2 at acme (E3). */
const FIRST = dataFileOf(persons, [employeeInput(e1), ...records]);
/** E1 renamed Okafor, and a new record at acme. */
const SECOND = dataFileOf(persons, [
  employeeInput({ ...e1, lastName: "Okafor" }),
  ...records,
  employeeInput({ id: E5, companyId: "acme", personId: P2, createdAt: at(5) }),
]);
/** E1 renamed again. */
const THIRD = dataFileOf(persons, [
  employeeInput({ ...e1, lastName: "Abara" }),
  ...records,
  employeeInput({ id: E5, companyId: "acme", personId: P2, createdAt: at(5) }),
]);

const employees = (company: string, extra: Partial<EmployeesQuery> = {}): EmployeesQuery => ({
  filter: { companies: new Set([company]) },
  created: {},
  offset: 0,
  limit: 50,
  ...extra,
});
const personsIn = (
  companies: readonly string[],
  readable: readonly string[],
  extra: Partial<PersonsQuery> = {},
): PersonsQuery => ({
  filter: { companies: new Set(companies) },
  readable: new Set(readable),
  created: {},
  offset: 0,
  limit: 50,
  ...extra,
});

type Ask = (reader: DirectoryReader) => Promise<unknown>;
const MIX: readonly Ask[] = [
  (r) => r.employees(employees("acme")),
  (r) => r.employees(employees("acme", { filter: { companies: new Set(["acme"]), lastName: "okafor" } })),
  (r) => r.employees(employees("beta")),
  (r) => r.persons(personsIn(["acme", "beta"], ["acme", "beta"])),
  (r) => r.persons(personsIn(["acme"], ["acme", "beta"])),
  (r) => r.persons(personsIn(["acme", "beta"], ["acme", "beta"], { personId: P1 })),
];
const askAll = (reader: DirectoryReader) => Promise.all(MIX.map((ask) => ask(reader)));

/** A reader on its own counted client and clock; `calls()` takes the commands sent since the last call. */
function counted(context: EngineContext, options: ReaderOptions = {}) {
  const client = context.engine.client();
  const recorder = new CapacityRecorder();
  instrumentClient(client, recorder);
  const documents = documentClientFor(client);
  const clock = { now: 1_000_000 };
  const reader = dynamoDirectoryReader(documents, context.tables.directory, {
    now: () => clock.now,
    ...options,
  });
  const taken = () => recorder.take();
  return {
    reader,
    documents,
    clock,
    /** In the order they ended: reads in flight together may end in any order (`sorted` for those). */
    calls: () => taken().map((call) => call.command),
    rcu: () => taken().reduce((sum, call) => sum + call.rcu, 0),
  };
}

/** What each search answers now: a reader that keeps nothing and reads the manifest every time. */
const truthOf = (context: EngineContext) =>
  dynamoDirectoryReader(documentClientFor(context.client), context.tables.directory, {
    manifestTtlMs: 0,
    answerCacheBytes: 0,
  });

/** Commands in a fixed order, for calls made in parallel. */
const sorted = (commands: readonly string[]) => [...commands].sort();

/** A JSON copy: what a response would carry, unfrozen. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describeEachEngine("the reader's answer cache", (getEngine) => {
  const writer = () => {
    const { client, tables } = getEngine();
    return dynamoDirectory(documentClientFor(client), tables.directory, { writer: { graceMs: 0 } });
  };

  beforeAll(async () => {
    await loadData(FIRST, writer(), "snapshot");
  });

  it("answers a search asked again with no read, then with the manifest's one read a TTL", async () => {
    const { reader, clock, calls, rcu } = counted(getEngine());
    const first = await askAll(reader);
    expect(plain(first)).toEqual(plain(await askAll(truthOf(getEngine()))));
    expect(calls().length).toBeGreaterThan(MIX.length);

    const again = await askAll(reader);
    expect(calls()).toEqual([]);
    for (const [i, answer] of again.entries()) expect(answer).toBe(first[i]);

    for (let ttl = 1; ttl <= 5; ttl += 1) {
      clock.now += MANIFEST_TTL_MS;
      await askAll(reader);
      const sent = calls();
      expect(sent).toEqual(["GetItemCommand"]);
      // Warm, the whole mix costs one strongly consistent read of the manifest: at most 1 RCU.
      clock.now += MANIFEST_TTL_MS;
      await askAll(reader);
      expect(rcu()).toBeLessThanOrEqual(1);
    }
  });

  it("shares one read among identical searches asked at once", async () => {
    const one = counted(getEngine());
    await MIX[3]?.(one.reader);
    const alone = one.calls();
    const three = counted(getEngine());
    await Promise.all([1, 2, 3].map(() => MIX[3]?.(three.reader)));
    expect(sorted(three.calls())).toEqual(sorted(alone));
  });

  it("never shares an answer between scopes: what a key may read, or the companies searched", async () => {
    const narrow = personsIn(["acme"], ["acme"]);
    const wide = personsIn(["acme"], ["acme", "beta"]);
    const betaOnly = personsIn(["beta"], ["beta"]);
    const betaWide = personsIn(["beta"], ["acme", "beta"]);
    const questions = [narrow, wide, betaOnly, betaWide];
    const truth = truthOf(getEngine());
    const expected = await Promise.all(questions.map((q) => truth.persons(q)));
    // beta's E2 only where beta is readable, acme's records only where acme is.
    expect(JSON.stringify(expected[0])).not.toContain(E2);
    expect(JSON.stringify(expected[1])).toContain(E2);
    expect(JSON.stringify(expected[2])).not.toMatch(new RegExp(`${E1}|${E3}|"acme"`));
    expect(JSON.stringify(expected[3])).toContain(E1);

    // In every order of asking, twice over (the second time from the cache), each gets its own.
    for (const order of [questions, [...questions].reverse()]) {
      const { reader, calls } = counted(getEngine());
      for (const round of [1, 2]) {
        for (const q of order)
          expect(plain(await reader.persons(q))).toEqual(plain(expected[questions.indexOf(q)]));
        if (round === 2) expect(calls()).toEqual([]);
        else calls();
      }
    }
    // The same holds for employees of two companies, and for a filter differing in one field.
    const { reader } = counted(getEngine());
    const acme = await reader.employees(employees("acme"));
    const beta = await reader.employees(employees("beta"));
    expect(JSON.stringify(acme)).not.toContain(E2);
    expect(JSON.stringify(beta)).not.toMatch(new RegExp(`${E1}|${E3}|${E4}`));
    const okafor = employees("acme", { filter: { companies: new Set(["acme"]), lastName: "okafor" } });
    expect((await reader.employees(okafor)).total).toBe(1);
    expect((await reader.employees(employees("acme"))).total).toBe(3);
  });

  it("keeps within its bound in bytes: an answer evicted is read again", async () => {
    const [first, second] = [employees("acme", { limit: 1 }), employees("acme", { offset: 1, limit: 1 })];
    const truth = truthOf(getEngine());
    const sizes = [
      approximateBytes(await truth.employees(first)),
      approximateBytes(await truth.employees(second)),
    ];
    // Room for one answer and its key, not two.
    const { reader, calls } = counted(getEngine(), { answerCacheBytes: (sizes[0] ?? 0) + (sizes[1] ?? 0) });
    const readsOf = async (query: EmployeesQuery) => {
      await reader.employees(query);
      return calls().filter((command) => command !== "GetItemCommand").length > 0;
    };
    expect(await readsOf(first)).toBe(true);
    expect(await readsOf(second)).toBe(true);
    expect(await readsOf(second)).toBe(false);
    expect(await readsOf(first)).toBe(true);
    expect(await readsOf(first)).toBe(false);
    expect(await readsOf(second)).toBe(true);

    // 0 keeps nothing: every search reads, each time alike (the manifest and the homes of scopes,
    // remembered apart, are read the first time), and answers are the reader's own (not frozen).
    const off = counted(getEngine(), { answerCacheBytes: 0 });
    await askAll(off.reader);
    off.calls();
    await askAll(off.reader);
    const once = off.calls();
    const answers = await askAll(off.reader);
    expect(once.length).toBeGreaterThanOrEqual(MIX.length);
    expect(sorted(off.calls())).toEqual(sorted(once));
    expect(answers.some((answer) => Object.isFrozen(answer))).toBe(false);
  });

  it("does not keep a failed read: the same search reads again, then is kept", async () => {
    const { reader, documents, calls } = counted(getEngine());
    let failures = 1;
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "QueryCommand" && failures > 0) {
          failures -= 1;
          throw new Error("injected: the engine failed this read");
        }
        return next(args);
      },
      { step: "initialize", priority: "high", name: "failOnce" },
    );
    const search = MIX[0];
    if (!search) throw new Error("no search");
    await expect(search(reader)).rejects.toThrow("injected");
    calls();
    const answer = await search(reader);
    expect(calls().length).toBeGreaterThan(0);
    expect(await search(reader)).toBe(answer);
    expect(calls()).toEqual([]);
  });

  it("keeps a slow answer once the manifest confirms its generation", async () => {
    const { reader, documents, clock, calls } = counted(getEngine());
    let slow = true;
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "QueryCommand" && slow) {
          slow = false;
          clock.now += 2 * MAX_READ_AGE_MS;
        }
        return next(args);
      },
      { step: "initialize", priority: "high", name: "slowRead" },
    );
    const query = personsIn(["acme", "beta"], ["acme", "beta"], { personId: P1 });
    const answer = await reader.persons(query);
    // The manifest read, the person's bundle, the manifest read again: same generation, answer kept.
    expect(calls()).toEqual(["GetItemCommand", "QueryCommand", "GetItemCommand"]);
    expect(await reader.persons(query)).toBe(answer);
    expect(calls()).toEqual([]);
  });

  it("sees a committed load once the manifest is read again, not before", async () => {
    const { reader, clock, calls } = counted(getEngine());
    const before = await askAll(reader);
    calls();
    await loadData(SECOND, writer(), "snapshot");
    const after = await askAll(truthOf(getEngine()));
    expect(plain(after)).not.toEqual(plain(before));

    // Within the manifest's TTL the reader still answers generation 1, whole, from memory.
    const stale = await askAll(reader);
    for (const [i, answer] of stale.entries()) expect(answer).toBe(before[i]);
    expect(calls()).toEqual([]);

    clock.now += MANIFEST_TTL_MS;
    expect(plain(await askAll(reader))).toEqual(plain(after));
    expect(calls()).toContain("QueryCommand");
    expect(plain(await askAll(reader))).toEqual(plain(after));
    expect(calls()).toEqual([]);
  });

  it("does not keep a slow answer whose generation moved during the read: it reads at the new one", async () => {
    const { reader, documents, clock, calls } = counted(getEngine());
    const query = personsIn(["acme", "beta"], ["acme", "beta"], { personId: P1 });
    let loadDuringRead = true;
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "QueryCommand" && loadDuringRead) {
          loadDuringRead = false;
          await loadData(THIRD, writer(), "snapshot");
          clock.now += 2 * MAX_READ_AGE_MS;
        }
        return next(args);
      },
      { step: "initialize", priority: "high", name: "loadDuringRead" },
    );
    const answer = await reader.persons(query);
    expect(plain(answer)).toEqual(plain(await truthOf(getEngine()).persons(query)));
    expect(JSON.stringify(answer)).toContain("Abara");
    // The manifest, the bundle at the old generation, the manifest (moved), then again at the new one.
    expect(calls()).toEqual([
      "GetItemCommand",
      "QueryCommand",
      "GetItemCommand",
      "GetItemCommand",
      "QueryCommand",
    ]);
    expect(await reader.persons(query)).toBe(answer);
    expect(calls()).toEqual([]);
  });
});
