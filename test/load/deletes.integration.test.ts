/**
 * Deletes (docs/data-format.md, "Keeping the directory current"): a record, a person, a whole
 * company's people; afterwards no search anywhere returns them. Deleting what is not stored does
 * nothing, so a file can be run again.
 */
import {
  COMPANIES,
  changes,
  type Directory,
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
} from "./load-harness.js";

/**
 * acme: E1 (P1), E2 (P1, a duplicate), E3 (P2), E4 unlinked. beta: E5 (P2), E6 (P3).
 * So P1 works only at acme, P2 at acme and beta, P3 only at beta.
 */
const PERSONS = [person(1), person(2), person(3)];
const RECORDS = [
  employee(1, { personId: P(1), firstName: "Ada", lastName: "Moss", phone: "(555) 300-0001" }),
  employee(2, { personId: P(1), firstName: "Ada", lastName: "Moss", phone: "(555) 300-0001" }),
  employee(3, { personId: P(2), firstName: "Ben", lastName: "Ruiz", phone: "(555) 300-0003" }),
  employee(4, { firstName: "Cy", lastName: "Moss", phone: "(555) 300-0004" }),
  employee(5, { personId: P(2), companyId: "beta", firstName: "Ben", lastName: "Ruiz" }),
  employee(6, { personId: P(3), companyId: "beta", firstName: "Di", lastName: "Park" }),
];

/** Every id any search finds, across companies, filters on the fixtures' names and phones, and personIds. */
async function everythingFound(directory: Directory): Promise<Set<string>> {
  const found = new Set<string>();
  const probes = [
    {},
    { lastName: "moss" },
    { lastName: "ruiz" },
    { firstName: "ada" },
    { phone: "(555) 300-0001" },
    { phone: "(555) 300-0003" },
    ...[1, 2, 3].map((n) => ({ personId: P(n) })),
  ];
  for (const filters of probes) {
    for (const company of COMPANIES)
      for (const id of await employeeIds(directory, company, filters)) found.add(id);
    for (const { id, employments } of await personsFound(directory, COMPANIES, filters)) {
      found.add(id);
      for (const record of employments) found.add(record);
    }
  }
  return found;
}

describeEachStore("deletes", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), PERSONS, RECORDS);
  });

  it("a deleted record is returned by no search", async () => {
    expect(await everythingFound(directory())).toContain(E(3));
    await changes(directory(), [deleteEmployee(E(3))]);
    const found = await everythingFound(directory());
    expect(found).not.toContain(E(3));
    expect(found).toContain(P(2));
    expect(await personsFound(directory(), COMPANIES, { personId: P(2) })).toEqual([
      { id: P(2), employments: [E(5)] },
    ]);
  });

  it("a person is deleted once its records are deleted in the same file, and no search returns either", async () => {
    await changes(directory(), [deleteEmployee(E(1)), deleteEmployee(E(2)), deletePerson(P(1))]);
    const found = await everythingFound(directory());
    for (const id of [P(1), E(1), E(2)]) expect(found).not.toContain(id);
    // Gone, not just unreachable: a record naming P1 now links to a missing person.
    await expect(changes(directory(), [upsertEmployee(employee(9, { personId: P(1) }))])).rejects.toThrow(
      `names person ${P(1)}`,
    );
  });

  it("a person is deleted once its records are re-linked in the same file", async () => {
    await changes(directory(), [
      upsertEmployee(employee(1, { personId: P(2) })),
      deletePerson(P(1)),
      upsertEmployee(employee(2, { personId: null })),
    ]);
    const found = await everythingFound(directory());
    expect(found).not.toContain(P(1));
    expect(await personsFound(directory(), COMPANIES, { personId: P(2) })).toEqual([
      { id: P(2), employments: [E(1), E(3), E(5)] },
    ]);
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(2), E(3), E(4)]);
  });

  it("offboarding a company deletes every record and every person only it held; no search returns them", async () => {
    await changes(directory(), [...[1, 2, 3, 4].map((n) => deleteEmployee(E(n))), deletePerson(P(1))]);
    expect(await employeeIds(directory(), "acme")).toEqual([]);
    expect(await personsFound(directory(), ["acme"])).toEqual([]);
    const found = await everythingFound(directory());
    for (const id of [P(1), E(1), E(2), E(3), E(4)]) expect(found).not.toContain(id);
    // P2 also worked at beta: kept, with only that employment.
    expect(await personsFound(directory(), COMPANIES, { lastName: "ruiz" })).toEqual([
      { id: P(2), employments: [E(5)] },
    ]);
  });

  it("an erasure of everything, by a snapshot of an empty file, leaves nothing to find", async () => {
    const summary = await snapshot(directory(), [], []);
    expect(summary).toMatchObject({ changes: 0, deletedBySnapshot: 9 });
    expect(await everythingFound(directory())).toEqual(new Set());
  });

  it("deleting ids that are not stored does nothing, and running the same file again is harmless", async () => {
    const before = await seen(directory());
    await changes(directory(), [deleteEmployee(E(90)), deletePerson(P(90))]);
    expect(await seen(directory())).toEqual(before);

    const file = [
      deleteEmployee(E(4)),
      deleteEmployee(E(91)),
      upsertEmployee(employee(7, { companyId: "gamma" })),
    ];
    await changes(directory(), file);
    const once = await seen(directory());
    expect(await employeeIds(directory(), "acme")).toEqual([E(1), E(2), E(3)]);
    await changes(directory(), file);
    expect(await seen(directory())).toEqual(once);
  });
});
