/**
 * The three load modes (docs/data-format.md, "Keeping the directory current"): merge upserts and
 * deletes nothing, snapshot makes the directory exactly the file, changes applies lines in order.
 */
import { memoryDirectory } from "../../lib/store/memory/memory-directory.js";
import {
  changes,
  deleteEmployee,
  deletePerson,
  describeEachStore,
  E,
  employee,
  employeeIds,
  merge,
  P,
  person,
  personsFound,
  seen,
  snapshot,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

/** P1 at acme and beta, P2 at beta, P3 at gamma, E4 unlinked at acme. */
const PERSONS = [person(1), person(2), person(3)];
const RECORDS = [
  employee(1, { personId: P(1), lastName: "Ng" }),
  employee(2, { personId: P(2), companyId: "beta" }),
  employee(3, { personId: P(3), companyId: "gamma" }),
  employee(4),
  employee(5, { personId: P(1), companyId: "beta" }),
];

/** Changes per apply: every line in one, and one line each (a later apply overrides an earlier). */
const PER_APPLY = [{ changesPerApply: 1_000 }, { changesPerApply: 1 }];

describeEachStore("load modes", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), PERSONS, RECORDS);
  });

  it("merge upserts every person and record of the file and deletes none that it lacks", async () => {
    const summary = await merge(
      directory(),
      [person(6)],
      [
        employee(1, { personId: P(1), lastName: "Okafor" }),
        employee(6, { personId: P(6), companyId: "gamma" }),
      ],
    );
    expect(summary).toMatchObject({ mode: "merge", changes: 3, changed: 3, deletedBySnapshot: 0 });
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(4)]);
    expect(await employeeIds(directory(), "acme", { lastName: "okafor" })).toEqual([E(1)]);
    expect(await employeeIds(directory(), "beta")).toEqual([E(2), E(5)]);
    expect(await employeeIds(directory(), "gamma")).toEqual([E(3), E(6)]);
    expect(await personsFound(directory())).toEqual([
      { id: P(1), employments: [E(1), E(5)] },
      { id: P(2), employments: [E(2)] },
      { id: P(3), employments: [E(3)] },
      { id: P(6), employments: [E(6)] },
    ]);
  });

  it("counts only what changed: the same snapshot again changes nothing", async () => {
    expect(await snapshot(directory(), PERSONS, RECORDS)).toMatchObject({
      changes: 8,
      changed: 0,
      deletedBySnapshot: 0,
    });
    const renamed = [...RECORDS.slice(0, 3), employee(4, { lastName: "Ito" }), ...RECORDS.slice(4)];
    expect(await merge(directory(), PERSONS, renamed)).toMatchObject({ changes: 8, changed: 1 });
  });

  it("snapshot makes the directory exactly the file: every stored person and record it lacks is deleted", async () => {
    const persons = [person(1), person(2, "2023-06-01T00:00:00Z"), person(7)];
    const records = [
      employee(1, { personId: P(1), lastName: "Okafor" }),
      employee(2, { personId: P(2), companyId: "beta" }),
      employee(7, { personId: P(7), companyId: "gamma" }),
    ];
    const summary = await snapshot(directory(), persons, records);
    // Absent from the file: E3, E4, E5 and P3. Changed: P2 (createdAt), P7 (new), E1 (name), E7 (new).
    expect(summary).toMatchObject({ mode: "snapshot", changes: 6, changed: 4, deletedBySnapshot: 4 });
    expect(await employeeIds(directory(), "acme")).toEqual([E(1)]);
    expect(await employeeIds(directory(), "beta")).toEqual([E(2)]);
    expect(await employeeIds(directory(), "gamma")).toEqual([E(7)]);
    expect(await personsFound(directory())).toEqual([
      { id: P(2), employments: [E(2)] },
      { id: P(1), employments: [E(1)] },
      { id: P(7), employments: [E(7)] },
    ]);
    // Whole records too: the same as a directory that only ever held the file.
    const fresh = memoryDirectory();
    await snapshot(fresh, persons, records);
    expect(await seen(directory())).toEqual(await seen(fresh));
  });

  it("snapshot deletes a stored person the file lacks: a later record naming it is refused", async () => {
    await snapshot(directory(), [person(1), person(2)], RECORDS.slice(0, 2));
    await expect(merge(directory(), [], [employee(8, { personId: P(3) })])).rejects.toThrow(
      `employee ${E(8)}: personId: names person ${P(3)}, which would not exist after this load`,
    );
  });

  it("snapshot of the directory as it is deletes nothing", async () => {
    const before = await seen(directory());
    expect(await snapshot(directory(), PERSONS, RECORDS)).toMatchObject({ deletedBySnapshot: 0 });
    expect(await seen(directory())).toEqual(before);
  });

  it.each(PER_APPLY)(
    "changes applies lines in file order: an upsert then a delete of the same id deletes it ($changesPerApply per apply)",
    async (options) => {
      await changes(
        directory(),
        [
          upsertEmployee(employee(1, { personId: P(1), lastName: "Okafor" })),
          deleteEmployee(E(1)),
          upsertEmployee(employee(9)),
          deleteEmployee(E(9)),
          upsertPerson(person(9)),
          deletePerson(P(9)),
        ],
        options,
      );
      expect(await employeeIds(directory(), "acme")).toEqual([E(4)]);
      expect(await employeeIds(directory(), "acme", { lastName: "okafor" })).toEqual([]);
      expect(await personsFound(directory(), ["acme", "beta"], { personId: P(1) })).toEqual([
        { id: P(1), employments: [E(5)] },
      ]);
      // P9 was deleted by its last line: a record naming it is refused.
      await expect(changes(directory(), [upsertEmployee(employee(10, { personId: P(9) }))])).rejects.toThrow(
        `names person ${P(9)}`,
      );
    },
  );

  it.each(PER_APPLY)(
    "changes applies lines in file order: a delete then an upsert of the same id keeps the upsert ($changesPerApply per apply)",
    async (options) => {
      await changes(
        directory(),
        [
          deleteEmployee(E(1)),
          upsertEmployee(employee(1, { personId: P(1), lastName: "Okafor" })),
          deletePerson(P(2)),
          upsertPerson(person(2, "2025-01-01T00:00:00Z")),
        ],
        options,
      );
      expect(await employeeIds(directory(), "acme", { lastName: "okafor" })).toEqual([E(1)]);
      expect(await personsFound(directory(), ["beta"], { from: "2025-01-01T00:00:00Z" })).toEqual([
        { id: P(2), employments: [E(2)] },
      ]);
    },
  );

  it.each(PER_APPLY)(
    "changes applies lines in file order: of two upserts of the same id the later wins ($changesPerApply per apply)",
    async (options) => {
      await changes(
        directory(),
        [
          upsertEmployee(employee(1, { personId: P(1), lastName: "Okafor", companyId: "gamma" })),
          upsertEmployee(employee(1, { personId: P(2), lastName: "Abebe", companyId: "beta" })),
          upsertPerson(person(3, "2020-01-01T00:00:00Z")),
          upsertPerson(person(3, "2021-01-01T00:00:00Z")),
        ],
        options,
      );
      expect(await employeeIds(directory(), "gamma", { lastName: "okafor" })).toEqual([]);
      expect(await employeeIds(directory(), "beta", { lastName: "abebe" })).toEqual([E(1)]);
      expect(await personsFound(directory(), ["beta"], { personId: P(2) })).toEqual([
        { id: P(2), employments: [E(1), E(2)] },
      ]);
      expect(await personsFound(directory(), ["acme", "beta"], { personId: P(1) })).toEqual([
        { id: P(1), employments: [E(5)] },
      ]);
      expect(await personsFound(directory(), ["gamma"], { before: "2021-01-01T00:00:00Z" })).toEqual([]);
      expect(await personsFound(directory(), ["gamma"], { from: "2021-01-01T00:00:00Z" })).toEqual([
        { id: P(3), employments: [E(3)] },
      ]);
    },
  );
});
