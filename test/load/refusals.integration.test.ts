/**
 * Files refused as a whole (docs/data-format.md): one that would leave a record pointing at a
 * missing person (naming the person and one such record), and one with a malformed line or record
 * (naming the line or record, and the field). Either way searches see exactly what they saw before,
 * and the next load runs.
 */

import { DataFileError } from "../../lib/directory/source.js";
import type { LoadMode } from "../../lib/load/change-lines.js";
import {
  changes,
  type Directory,
  dataText,
  deleteEmployee,
  deletePerson,
  describeEachStore,
  E,
  employee,
  load,
  merge,
  ndjson,
  P,
  person,
  seen,
  snapshot,
  upsertEmployee,
  upsertPerson,
} from "./load-harness.js";

/** P1 holds E1 and E2 at acme; P2 holds E3 at beta. */
const PERSONS = [person(1), person(2)];
const RECORDS = [
  employee(1, { personId: P(1) }),
  employee(2, { personId: P(1) }),
  employee(3, { personId: P(2), companyId: "beta" }),
];

/** The refusal a dangling link gets, with the records that could be named. */
const dangling = (personId: string, records: string[]) =>
  new RegExp(
    `^employee (${records.join("|")}): personId: names person ${personId}, which would not exist after this load$`,
  );

async function expectRefused(
  directory: Directory,
  attempt: () => Promise<unknown>,
  message: RegExp | string,
) {
  const before = await seen(directory);
  const refusal = await attempt().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(DataFileError);
  const said = (refusal as Error).message;
  // A string is the message's beginning; the rule's wording may go on.
  if (typeof message === "string") expect(said.slice(0, message.length)).toBe(message);
  else expect(said).toMatch(message);
  expect(await seen(directory)).toEqual(before);
  // Nothing is left half-done or locked: the next load applies.
  await changes(directory, [upsertEmployee(employee(9))]);
  expect((await seen(directory)).employees.acme).not.toEqual(before.employees.acme);
}

const line = (value: unknown) => JSON.stringify(value);
const withoutGender = () => {
  const record = employee(8);
  const { gender: _, ...demographics } = record.demographics;
  return { ...record, demographics };
};
const withCoverageEnd = (endsAt: unknown) => ({
  ...employee(8),
  coverages: [
    { status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "gold" },
    { status: "waived", startsAt: "2024-06-01", endsAt, planTier: "basic" },
  ],
});

/** [what, mode, file text, the message it must get] */
const MALFORMED: [string, LoadMode, string, string][] = [
  [
    "bad JSON on a line",
    "changes",
    `${line(upsertPerson(person(8)))}\n{"op": "upsert", "person": \n`,
    "line 2: not valid JSON",
  ],
  [
    "an unknown op",
    "changes",
    ndjson([upsertPerson(person(8)), deleteEmployee(E(1)), { op: "replace", person: person(8) }]),
    'line 3: op: expected "upsert" or "delete"',
  ],
  [
    "a delete naming no uuid",
    "changes",
    ndjson([{ op: "delete", employee: "E1" }]),
    "line 1: employee: expected the uuid of the record to delete",
  ],
  [
    "a missing field",
    "changes",
    ndjson([upsertPerson(person(8)), { op: "upsert", employee: withoutGender() }]),
    `employee at line 2 (id ${E(8)}): demographics.gender: required`,
  ],
  [
    "a bad value deep in a record",
    "changes",
    ndjson([upsertEmployee(withCoverageEnd("soon") as ReturnType<typeof employee>)]),
    `employee at line 1 (id ${E(8)}): coverages[1].endsAt: expected date (YYYY-MM-DD) or date-time`,
  ],
  [
    "a bad value in a JSON data file",
    "snapshot",
    dataText([person(1)], [
      employee(1, { personId: P(1) }),
      { ...employee(8), contact: { ...employee(8).contact, phone: 5 } },
    ] as never),
    `employees[1] (id ${E(8)}): contact.phone: expected string or null`,
  ],
  [
    "a bad value in an NDJSON data file",
    "merge",
    `${line({ employee: employee(8) })}\n${line({ person: { ...person(8), createdAt: "yesterday" } })}\n`,
    `person at line 2 (id ${P(8)}): createdAt: expected date-time`,
  ],
  [
    "a lone surrogate in a changes file",
    "changes",
    ndjson([
      upsertPerson(person(8)),
      upsertEmployee({ ...employee(8), demographics: { ...employee(8).demographics, lastName: "O\uDC00" } }),
    ]),
    `employee at line 2 (id ${E(8)}): demographics.lastName: is not well-formed Unicode (a lone surrogate)`,
  ],
  [
    "a lone surrogate in an NDJSON data file",
    "merge",
    `${line({ person: person(8) })}\n${line({ employee: { ...employee(8), contact: { ...employee(8).contact, email: "\uD800@x" } } })}\n`,
    `employee at line 2 (id ${E(8)}): contact.email: is not well-formed Unicode (a lone surrogate)`,
  ],
  [
    "a duplicate id in a JSON data file",
    "merge",
    dataText([], [employee(8), employee(8, { companyId: "beta" })]),
    `employees[1] (id ${E(8)}): id: duplicate employee id (first used by employees[0])`,
  ],
  [
    "a duplicate id in an NDJSON data file",
    "merge",
    `${line({ person: person(8) })}\n${line({ employee: employee(8) })}\n${line({ person: person(8) })}\n`,
    `person at line 3 (id ${P(8)}): id: duplicate person id (first used by person at line 1)`,
  ],
];

describeEachStore("refused files", (directory, it) => {
  beforeEach(async () => {
    await merge(directory(), PERSONS, RECORDS);
  });

  it("deleting a person whose records still link to it is refused, naming the person and a record", async () => {
    await expectRefused(
      directory(),
      () => changes(directory(), [deletePerson(P(1))]),
      dangling(P(1), [E(1), E(2)]),
    );
  });

  it("an upsert naming an unknown person is refused, naming the person and the record", async () => {
    await expectRefused(
      directory(),
      () =>
        merge(directory(), [person(7)], [employee(7, { personId: P(7) }), employee(8, { personId: P(99) })]),
      dangling(P(99), [E(8)]),
    );
  });

  it("a snapshot that lacks a person its records link to is refused", async () => {
    await expectRefused(
      directory(),
      () => snapshot(directory(), [person(2)], RECORDS),
      dangling(P(1), [E(1), E(2)]),
    );
  });

  it("a changes file that links a record and later deletes its person is refused", async () => {
    await expectRefused(
      directory(),
      () =>
        changes(
          directory(),
          [upsertEmployee(employee(8, { personId: P(2) })), deleteEmployee(E(3)), deletePerson(P(2))],
          {
            changesPerApply: 1,
          },
        ),
      dangling(P(2), [E(8)]),
    );
  });

  it.each(MALFORMED)(
    "a file with %s is refused whole, naming the line or record and the field",
    async (_, mode, text, message) => {
      await expectRefused(directory(), () => load(directory(), mode, text), message);
    },
  );
});
