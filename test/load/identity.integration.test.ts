/**
 * Identity by id (docs/data-format.md, "Keeping the directory current"): an upsert replaces the
 * whole record wherever it was, so no search finds it by an old value, and a person's employments
 * show only current records. Each change is made once by a merge file and once by a changes file.
 */
import {
  changes,
  type Directory,
  describeEachStore,
  E,
  employee,
  employeeIds,
  type Filters,
  merge,
  P,
  person,
  personsFound,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

/** E1: P1 at acme, Zoë García, (555) 200-0001. E2: P1 at beta. E3: P2 at acme. X (P3) and Y (P4) for re-links. */
const X = P(3);
const Y = P(4);
const PERSONS = [person(1), person(2), person(3), person(4)];
const E1 = { personId: P(1), phone: "(555) 200-0001" } as const;
const E5 = { personId: X, companyId: "gamma", firstName: "Xi", lastName: "Xu" } as const;
const RECORDS = [
  employee(1, E1),
  employee(2, {
    personId: P(1),
    companyId: "beta",
    firstName: "Ana",
    lastName: "Smith",
    phone: "(555) 200-0002",
  }),
  employee(3, { personId: P(2), firstName: "Bo", lastName: "Lind", phone: "(555) 200-0003" }),
  employee(5, E5),
];

/** A search a partner could make; returns the ids of what it finds (records or persons). */
type Probe = (directory: Directory) => Promise<string[]>;
const records =
  (company: string, filters: Filters = {}): Probe =>
  (directory) =>
    employeeIds(directory, company, filters);
const persons =
  (companies: string[], filters: Filters = {}): Probe =>
  async (directory) =>
    (await personsFound(directory, companies, filters)).map((found) => found.id);
/** The ids of P's employments, in every company. */
const employmentsOf =
  (personId: string): Probe =>
  async (directory) =>
    (await personsFound(directory, ["acme", "beta", "gamma"], { personId })).flatMap((p) => p.employments);

interface Case {
  name: string;
  persons?: ReturnType<typeof person>[];
  employees?: ReturnType<typeof employee>[];
  /** Each finds the changed id before the load, and must not after it. */
  old: Probe[];
  /** Each finds the changed id after the load. */
  now: Probe[];
  id: string;
}

const CASES: Case[] = [
  {
    name: "a move to another company (and the same-employment rule for persons)",
    employees: [employee(1, { ...E1, companyId: "gamma" })],
    id: E(1),
    old: [records("acme"), records("acme", { lastName: "garcía" })],
    now: [records("gamma", { lastName: "garcía" })],
  },
  {
    name: "a move, seen from the person: its old company with its old last name finds it no more",
    employees: [employee(1, { ...E1, companyId: "gamma" })],
    id: P(1),
    old: [persons(["acme"], { lastName: "garcía" }), persons(["acme"], { phone: "555-200-0001" })],
    now: [persons(["gamma"], { lastName: "garcía" }), persons(["beta"], { lastName: "smith" })],
  },
  {
    name: "a re-link to another person",
    employees: [employee(1, { ...E1, personId: P(2) })],
    id: E(1),
    old: [records("acme", { personId: P(1) }), employmentsOf(P(1))],
    now: [records("acme", { personId: P(2) }), employmentsOf(P(2))],
  },
  {
    name: "a new createdAt",
    employees: [employee(1, { ...E1, createdAt: "2025-06-01T00:00:00Z" })],
    id: E(1),
    old: [records("acme", { from: "2024-03-01T00:00:00Z", before: "2024-03-02T00:00:00Z" })],
    now: [records("acme", { from: "2025-06-01T00:00:00Z" })],
  },
  {
    name: "a new first name",
    employees: [employee(1, { ...E1, firstName: "Maya" })],
    id: E(1),
    old: [records("acme", { firstName: "zoë" })],
    now: [records("acme", { firstName: "maya" })],
  },
  {
    name: "a new first name, seen from the person",
    employees: [employee(1, { ...E1, firstName: "Maya" })],
    id: P(1),
    old: [
      persons(["acme"], { firstName: "zoë" }),
      persons(["acme"], { firstName: "zoë", lastName: "garcía" }),
    ],
    now: [persons(["acme"], { firstName: "maya", lastName: "garcía" })],
  },
  {
    name: "a new last name",
    employees: [employee(1, { ...E1, lastName: "Okafor" })],
    id: E(1),
    old: [records("acme", { lastName: "garcía" })],
    now: [records("acme", { lastName: "okafor" })],
  },
  {
    name: "a new last name, seen from the person",
    employees: [employee(1, { ...E1, lastName: "Okafor" })],
    id: P(1),
    old: [persons(["acme"], { lastName: "garcía" }), persons(["acme", "beta"], { lastName: "garcía" })],
    now: [persons(["acme"], { lastName: "okafor" })],
  },
  {
    name: "a new phone",
    employees: [employee(1, { ...E1, phone: "555.200.0009" })],
    id: E(1),
    old: [records("acme", { phone: "(555) 200-0001" })],
    now: [records("acme", { phone: "5552000009" })],
  },
  {
    name: "a new phone, seen from the person",
    employees: [employee(1, { ...E1, phone: "555.200.0009" })],
    id: P(1),
    old: [persons(["acme", "beta", "gamma"], { phone: "(555) 200-0001" })],
    now: [persons(["acme"], { phone: "5552000009" })],
  },
  {
    name: "a person's new createdAt",
    persons: [person(1, "2025-02-01T00:00:00Z")],
    id: P(1),
    old: [persons(["acme", "beta"], { before: "2024-01-02T00:00:00Z" })],
    now: [persons(["acme", "beta"], { from: "2025-02-01T00:00:00Z" })],
  },
];

const MODES = [
  { mode: "merge", apply: (d: Directory, c: Case) => merge(d, c.persons ?? [], c.employees ?? []) },
  {
    mode: "changes",
    apply: (d: Directory, c: Case) =>
      changes(d, [...(c.persons ?? []).map(upsertPerson), ...(c.employees ?? []).map(upsertEmployee)]),
  },
] as const;

const TABLE = MODES.flatMap(({ mode, apply }) => CASES.map((c) => ({ ...c, mode, apply })));

describeEachStore("identity by id", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), PERSONS, RECORDS);
  });

  it.each(TABLE)("after $name ($mode), no search finds it by its old value", async (c) => {
    for (const probe of c.old) expect(await probe(directory())).toContain(c.id);
    await c.apply(directory(), c);
    for (const probe of c.old) expect(await probe(directory())).not.toContain(c.id);
    for (const probe of c.now) expect(await probe(directory())).toContain(c.id);
  });

  it.each(MODES)(
    "a person's employments show only its current records, as they are now ($mode)",
    async (m) => {
      const moved = employee(1, { ...E1, companyId: "gamma", lastName: "Okafor" });
      await m.apply(directory(), { name: "", id: "", old: [], now: [], employees: [moved] });
      const [found] = (
        await directory().persons({
          filter: { companies: new Set(["gamma"]) },
          readable: new Set(["acme", "beta", "gamma"]),
          personId: P(1),
          created: {},
          offset: 0,
          limit: 10,
        })
      ).items;
      expect(
        found?.employments.map((record) => [record.id, record.companyId, record.demographics.lastName]),
      ).toEqual([
        [E(1), "gamma", "Okafor"],
        [E(2), "beta", "Smith"],
      ]);
    },
  );

  it("a re-link with both persons in the file moves the record from X to Y", async () => {
    await merge(directory(), [person(3), person(4)], [employee(5, { ...E5, personId: Y })]);
    expect(await employmentsOf(X)(directory())).toEqual([]);
    expect(await records("gamma", { personId: X })(directory())).toEqual([]);
    expect(await personsFound(directory(), ["gamma"])).toEqual([{ id: Y, employments: [E(5)] }]);
  });

  it("a re-link with only the new person in the file leaves X its other records", async () => {
    await merge(directory(), [], [employee(6, { personId: X, companyId: "beta" })]);
    await merge(directory(), [person(4)], [employee(5, { ...E5, personId: Y })]);
    expect(await personsFound(directory(), ["gamma", "beta"], { personId: X })).toEqual([
      { id: X, employments: [E(6)] },
    ]);
    expect(await personsFound(directory(), ["gamma", "beta"], { personId: Y })).toEqual([
      { id: Y, employments: [E(5)] },
    ]);
    expect(await persons(["gamma"], { lastName: "xu" })(directory())).toEqual([Y]);
  });
});
