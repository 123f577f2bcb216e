/**
 * The in-memory store's loads (lib/store/memory): a pending state no reader sees until commit,
 * abort leaving the directory as it was, a later change of an id winning, the ids a snapshot
 * compares against, the reference rule's check, and one load at a time.
 */
import type { SourceEmployee, SourcePerson } from "../../../lib/directory/source.js";
import { type MemoryDirectory, memoryDirectory } from "../../../lib/store/memory/memory-directory.js";
import { type Change, LoadInProgressError, type LoadSession } from "../../../lib/store/port.js";
import { memoryWith } from "../../search/memory-store.js";
import { dataFileOf, employeeInput, personInput } from "../../support/records.js";

const ANN = "a0000000-0000-4000-8000-000000000001";
const BEN = "b0000000-0000-4000-8000-000000000002";
const R1 = "10000000-0000-4000-8000-000000000001";
const R2 = "20000000-0000-4000-8000-000000000002";

const data = dataFileOf(
  [personInput(ANN, "2024-01-01T00:00:00Z"), personInput(BEN, "2024-02-01T00:00:00Z")],
  [
    employeeInput({ id: R1, companyId: "acme", personId: ANN, createdAt: "2024-01-02T00:00:00Z" }),
    employeeInput({ id: R2, companyId: "beta", personId: BEN, createdAt: "2024-02-02T00:00:00Z" }),
  ],
);
const [ann, ben] = data.persons as [SourcePerson, SourcePerson];
const [r1, r2] = data.employees as [SourceEmployee, SourceEmployee];

/** Every record of a company, as an unfiltered employees search sees them. */
const recordsAt = async (directory: MemoryDirectory, companyId: string) =>
  (
    await directory.employees({
      filter: { companies: new Set([companyId]) },
      created: {},
      offset: 0,
      limit: 100,
    })
  ).items;

const idsOf = async (session: LoadSession, kind: "person" | "employee") => {
  const ids: string[] = [];
  for await (const page of session.storedIds(kind)) ids.push(...page.ids);
  return ids.sort();
};

describe("memory directory loads", () => {
  it("shows nothing of a load before commit, and all of it after", async () => {
    const directory = memoryWith(data);
    const before = directory.state();
    const session = await directory.beginLoad("test");
    const moved = { ...r1, companyId: "beta" };
    await session.apply([
      { op: "upsert", employee: moved },
      { op: "delete", employee: R2 },
    ]);
    expect(directory.state()).toBe(before);
    expect(await recordsAt(directory, "acme")).toEqual([r1]);
    expect(await recordsAt(directory, "beta")).toEqual([r2]);
    await session.commit();
    expect(await recordsAt(directory, "acme")).toEqual([]);
    expect(await recordsAt(directory, "beta")).toEqual([moved]);
    expect([...directory.state().employees.keys()]).toEqual([R1]);
  });

  it("leaves the directory unchanged when a load is aborted", async () => {
    const directory = memoryWith(data);
    const session = await directory.beginLoad("test");
    await session.apply([
      { op: "delete", person: ANN },
      { op: "delete", employee: R1 },
    ]);
    await session.abort();
    expect(directory.state().persons).toEqual(
      new Map([
        [ANN, ann],
        [BEN, ben],
      ]),
    );
    expect(directory.state().employees).toEqual(
      new Map([
        [R1, r1],
        [R2, r2],
      ]),
    );
  });

  it("lets a later change of an id win, within one apply and across applies", async () => {
    const directory = memoryWith(data);
    const session = await directory.beginLoad("test");
    const renamed = (firstName: string): SourceEmployee => ({
      ...r1,
      demographics: { ...r1.demographics, firstName },
    });
    const changes: Change[] = [
      { op: "upsert", employee: renamed("First") },
      { op: "delete", employee: R1 },
      { op: "upsert", employee: renamed("Last") },
      { op: "upsert", employee: { ...r2, companyId: "gamma" } },
    ];
    await session.apply(changes);
    await session.apply([{ op: "delete", employee: R2 }]);
    await session.commit();
    expect(directory.state().employees).toEqual(new Map([[R1, renamed("Last")]]));
  });

  it("lists the pending state's ids: stored ones, minus deletes, plus upserts; a missing id's delete does nothing", async () => {
    const directory = memoryWith(data);
    const session = await directory.beginLoad("test");
    const cara = { ...ann, id: "c0000000-0000-4000-8000-000000000003" };
    await session.apply([
      { op: "upsert", person: cara },
      { op: "delete", employee: R2 },
      { op: "delete", employee: "f0000000-0000-4000-8000-00000000000f" },
    ]);
    expect(await idsOf(session, "person")).toEqual([ANN, BEN, cara.id]);
    expect(await idsOf(session, "employee")).toEqual([R1]);
    await session.abort();
  });

  it("names a record that would link to a missing person, and none once the link is mended", async () => {
    const directory = memoryWith(data);
    const session = await directory.beginLoad("test");
    expect(await session.danglingReference()).toBeUndefined();
    await session.apply([{ op: "delete", person: ANN }]);
    expect(await session.danglingReference()).toEqual({ personId: ANN, employeeId: R1 });
    await session.apply([{ op: "upsert", employee: { ...r1, personId: BEN } }]);
    expect(await session.danglingReference()).toBeUndefined();
    await session.apply([
      { op: "upsert", employee: { ...r2, personId: null } },
      { op: "delete", person: BEN },
    ]);
    expect(await session.danglingReference()).toEqual({ personId: BEN, employeeId: R1 });
    await session.apply([{ op: "delete", employee: R1 }]);
    expect(await session.danglingReference()).toBeUndefined();
    await session.abort();
  });

  it("runs one load at a time, naming the running one; the lease is free again after commit or abort", async () => {
    const directory = memoryDirectory(undefined, () => Date.parse("2025-01-05T12:00:00Z"));
    const first = await directory.beginLoad("changes first.ndjson");
    const refusal = directory.beginLoad("second");
    await expect(refusal).rejects.toThrow(LoadInProgressError);
    // The message names the running load; a lease in memory never outlives it, so no expiry is named.
    await expect(refusal).rejects.toThrow(
      /^another load is running \(changes first\.ndjson, started 2025-01-05T12:00:00\.000Z\)$/,
    );
    await first.abort();
    const second = await directory.beginLoad("second");
    await second.apply([{ op: "upsert", person: ann }]);
    await second.commit();
    await expect(second.commit()).rejects.toThrow(/no longer holds the lease/);
    const third = await directory.beginLoad("third");
    await third.abort();
    expect([...directory.state().persons.keys()]).toEqual([ANN]);
  });
});
