/**
 * Random steps of a load sequence, for changes.property.integration.test.ts: each a list of abstract changes
 * (hire, edit, move, re-link, delete…) whose targets are indices, resolved by change-sequence.ts
 * against the directory as it stands when the step runs.
 */
import fc from "fast-check";
import type { LoadMode } from "../../lib/load/change-lines.js";
import {
  type EmploymentSpec,
  employmentArbitrary,
  FIRST_NAMES,
  INSTANTS,
  LAST_NAMES,
  PHONES,
} from "../search/random-directory.js";

/**
 * An index into whatever list it picks from, modulo its length (negative: from the end). Mostly
 * near either end, so that changes of one load often meet on the same record or person, and on
 * those the load itself just created.
 */
const pick = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 2 }) },
  { weight: 1, arbitrary: fc.nat(63) },
);
export const EDITED = {
  firstName: FIRST_NAMES,
  lastName: LAST_NAMES,
  phone: PHONES,
  createdAt: INSTANTS,
} as const;
type EditedField = keyof typeof EDITED;

export type ChangeSpec =
  | { op: "newPerson"; tag: number; createdAt: string; upperId: boolean }
  | { op: "newRecord"; employment: EmploymentSpec; person: number | null }
  | { op: "edit"; record: number; field: EditedField; value: number }
  | { op: "move"; record: number; company: number }
  | { op: "relink"; record: number; person: number | null }
  | { op: "personCreatedAt"; person: number; createdAt: string }
  /** `record` null: an id that is not stored (deleting it does nothing). */
  | { op: "deleteRecord"; record: number | null; upperId: boolean }
  /** Upserts again a person or record deleted earlier in the sequence (its old values, its old id). */
  | { op: "revive"; kind: "person" | "employee"; index: number }
  /** Its records deleted or re-linked in the same load, or left linked (the load is then refused). */
  | {
      op: "deletePerson";
      person: number;
      records: "delete" | "relink" | "leave";
      relinkTo: number | null;
      recordsFirst: boolean;
      upperId: boolean;
    };

const changeSpec: fc.Arbitrary<ChangeSpec> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("revive" as const),
      kind: fc.constantFrom("person" as const, "employee" as const),
      index: pick,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("newPerson" as const),
      tag: fc.nat(255),
      createdAt: fc.constantFrom(...INSTANTS),
      upperId: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("newRecord" as const),
      employment: employmentArbitrary,
      person: fc.option(pick, { nil: null, freq: 5 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("edit" as const),
      record: pick,
      field: fc.constantFrom(...(Object.keys(EDITED) as EditedField[])),
      value: pick,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("move" as const), record: pick, company: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("relink" as const),
      record: pick,
      person: fc.option(pick, { nil: null, freq: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("personCreatedAt" as const),
      person: pick,
      createdAt: fc.constantFrom(...INSTANTS),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("deleteRecord" as const),
      record: fc.option(pick, { nil: null, freq: 5 }),
      upperId: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("deletePerson" as const),
      person: pick,
      records: fc.constantFrom(
        "delete" as const,
        "delete" as const,
        "relink" as const,
        "relink" as const,
        "leave" as const,
      ),
      relinkTo: fc.option(pick, { nil: null, freq: 3 }),
      recordsFirst: fc.boolean(),
      upperId: fc.boolean(),
    }),
  },
);

export interface StepSpec {
  mode: LoadMode;
  changes: ChangeSpec[];
  /** Load the same file a second time: the directory must not change. */
  repeat: boolean;
  /** Changes per `apply`: a few make later changes of an id meet the load's own earlier writes. */
  changesPerApply: number;
}

export const stepArbitrary: fc.Arbitrary<StepSpec> = fc.record({
  mode: fc.constantFrom<LoadMode>("changes", "changes", "changes", "snapshot", "merge"),
  changes: fc.array(changeSpec, { minLength: 1, maxLength: 10 }),
  repeat: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  changesPerApply: fc.constantFrom(1, 3, 1_000, 1_000),
});
