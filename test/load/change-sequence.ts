/**
 * Sequences of loads over a random directory, for changes.property.integration.test.ts. A step's abstract
 * changes (change-arbitraries.ts) are resolved against the directory as it stands when the step
 * runs, earlier changes of the step included, so every generated sequence is meaningful whatever
 * the loads before it did. A step is loaded as a changes file, as a snapshot of the directory it
 * leads to, or as a merge of its upserts; the model here says what each leaves, or that it is refused.
 */
import { type SourceEmployee, type SourcePerson, validateRecord } from "../../lib/directory/source.js";
import type { LoadMode } from "../../lib/load/change-lines.js";
import type { DirectoryState } from "../../lib/store/memory/memory-directory.js";
import type { Change, DanglingReference } from "../../lib/store/port.js";
import { employmentInput } from "../search/random-directory.js";
import { personInput } from "../support/records.js";
import { type ChangeSpec, EDITED } from "./change-arbitraries.js";

/** Where new records may go (the dataset's companies and its ghost), and fresh ids. */
export interface World {
  readonly companies: readonly string[];
  /** Tells this sequence's new ids from every other sequence's. */
  readonly run: number;
  next: number;
  /** Every person and record a resolved change deleted, by id (revived by later changes). */
  readonly deleted: { persons: Map<string, SourcePerson>; employees: Map<string, SourceEmployee> };
}

export const worldOf = (companies: readonly string[], run: number): World => ({
  companies,
  run,
  next: 0,
  deleted: { persons: new Map(), employees: new Map() },
});

const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
function freshId(world: World, tag: number): string {
  world.next += 1;
  return `${hex(tag, 2)}${hex(world.run, 6)}-d${hex(world.next, 3)}-4abc-8def-${hex(world.next, 12)}`;
}

/** A mutable copy of a state, changed in place as a step's changes are resolved. */
const copyOf = (state: DirectoryState) => ({
  persons: new Map(state.persons),
  employees: new Map(state.employees),
});
type Working = ReturnType<typeof copyOf>;

/** The state after `changes`, applied in order (the contract's rules, one line each). */
function applied(state: DirectoryState, changes: readonly Change[]): Working {
  const next = copyOf(state);
  for (const change of changes) {
    if (change.op === "upsert") {
      if ("person" in change) next.persons.set(change.person.id, change.person);
      else next.employees.set(change.employee.id, change.employee);
    } else if ("person" in change) next.persons.delete(change.person);
    else next.employees.delete(change.employee);
  }
  return next;
}

/** Every record that links to a person the state lacks. */
function danglingOf(state: DirectoryState): DanglingReference[] {
  return [...state.employees.values()].flatMap((record) =>
    record.personId !== null && !state.persons.has(record.personId)
      ? [{ personId: record.personId, employeeId: record.id }]
      : [],
  );
}

const nth = <T>(items: Iterable<T>, index: number): T | undefined => {
  const list = [...items];
  return list.length === 0 ? undefined : list[((index % list.length) + list.length) % list.length];
};
const employee = (raw: unknown) => validateRecord("employee", raw, "generated record");
const resolvedAs = (change: Change, line: Record<string, unknown>) => ({ change, line });

/** A change, and the line a changes file states it with (ids in any case, as a source may write them). */
export interface ResolvedChange {
  readonly change: Change;
  readonly line: Record<string, unknown>;
}

/** What a change spec is resolved against: the state its predecessors left, and the world. */
interface Resolving {
  readonly state: Working;
  readonly world: World;
}
type Resolver<Op extends ChangeSpec["op"]> = (
  spec: Extract<ChangeSpec, { op: Op }>,
  at: Resolving,
) => ResolvedChange[];

const upsertRecord = (record: SourceEmployee, raw: unknown = record) =>
  resolvedAs({ op: "upsert", employee: record }, { op: "upsert", employee: raw });
const recordAt = (state: Working, index: number | null) =>
  index === null ? undefined : nth(state.employees.values(), index);
const personIdAt = (state: Working, index: number | null) =>
  index === null ? null : (nth(state.persons.keys(), index) ?? null);

/** The record with one field set to a new value (null clears it). */
function edited(
  record: SourceEmployee,
  field: Extract<ChangeSpec, { op: "edit" }>["field"],
  value: string | null,
): SourceEmployee {
  if (field === "createdAt") return employee({ ...record, createdAt: value });
  if (field === "phone") return employee({ ...record, contact: { ...record.contact, phone: value } });
  return employee({ ...record, demographics: { ...record.demographics, [field]: value } });
}

/** What becomes of the records linked to a deleted person: deleted, re-linked, or left (dangling). */
function linkedRecordChanges(
  spec: Extract<ChangeSpec, { op: "deletePerson" }>,
  state: Working,
  personId: string,
): ResolvedChange[] {
  if (spec.records === "leave") return [];
  const others = [...state.persons.keys()].filter((id) => id !== personId);
  const relinkTo = spec.relinkTo === null ? null : (nth(others, spec.relinkTo) ?? null);
  return [...state.employees.values()]
    .filter((linked) => linked.personId === personId)
    .map((linked) =>
      spec.records === "relink"
        ? upsertRecord({ ...linked, personId: relinkTo })
        : resolvedAs({ op: "delete", employee: linked.id }, { op: "delete", employee: linked.id }),
    );
}

/** How each kind of change spec becomes changes; none when it has no target (e.g. no record yet). */
const RESOLVERS: { readonly [Op in ChangeSpec["op"]]: Resolver<Op> } = {
  newPerson: (spec, { world }) => {
    const id = freshId(world, spec.tag);
    const raw = personInput(spec.upperId ? id.toUpperCase() : id, spec.createdAt);
    const person = validateRecord("person", raw, "generated person");
    return [resolvedAs({ op: "upsert", person }, { op: "upsert", person: raw })];
  },
  newRecord: ({ employment, person }, { state, world }) => {
    const id = freshId(world, employment.tag);
    const raw = employmentInput(employment, {
      id: employment.upperId ? id.toUpperCase() : id,
      companyId: nth(world.companies, employment.company) ?? "none",
      personId: personIdAt(state, person),
    });
    return [upsertRecord(employee(raw), raw)];
  },
  edit: (spec, { state }) => {
    const record = recordAt(state, spec.record);
    if (!record) return [];
    return [upsertRecord(edited(record, spec.field, nth(EDITED[spec.field], spec.value) ?? null))];
  },
  move: (spec, { state, world }) => {
    const record = recordAt(state, spec.record);
    if (!record) return [];
    return [upsertRecord({ ...record, companyId: nth(world.companies, spec.company) ?? record.companyId })];
  },
  relink: (spec, { state }) => {
    const record = recordAt(state, spec.record);
    return record ? [upsertRecord({ ...record, personId: personIdAt(state, spec.person) })] : [];
  },
  personCreatedAt: (spec, { state }) => {
    const person = nth(state.persons.values(), spec.person);
    if (!person) return [];
    const moved: SourcePerson = { ...person, createdAt: spec.createdAt };
    return [resolvedAs({ op: "upsert", person: moved }, { op: "upsert", person: moved })];
  },
  deleteRecord: (spec, { state, world }) => {
    const id = recordAt(state, spec.record)?.id ?? `0e0e0e0e-0000-4000-8000-${hex(world.run, 12)}`;
    return [
      resolvedAs(
        { op: "delete", employee: id },
        { op: "delete", employee: spec.upperId ? id.toUpperCase() : id },
      ),
    ];
  },
  revive: (spec, { state, world }) => {
    const from = spec.kind === "person" ? world.deleted.persons : world.deleted.employees;
    const present = spec.kind === "person" ? state.persons : state.employees;
    const value = nth(
      [...from.values()].filter((gone) => !present.has(gone.id)),
      spec.index,
    );
    if (value === undefined) return [];
    const change: Change =
      spec.kind === "person"
        ? { op: "upsert", person: value as SourcePerson }
        : { op: "upsert", employee: value as SourceEmployee };
    return [resolvedAs(change, { ...change })];
  },
  deletePerson: (spec, { state }) => {
    const personId = personIdAt(state, spec.person);
    if (personId === null) return [];
    const remove = resolvedAs(
      { op: "delete", person: personId },
      { op: "delete", person: spec.upperId ? personId.toUpperCase() : personId },
    );
    const records = linkedRecordChanges(spec, state, personId);
    return spec.recordsFirst ? [...records, remove] : [remove, ...records];
  },
};

function resolveOne(spec: ChangeSpec, at: Resolving): ResolvedChange[] {
  // TypeScript cannot tie `RESOLVERS[spec.op]` to `spec`'s own member of the union; the table's type does.
  const resolve = RESOLVERS[spec.op] as Resolver<ChangeSpec["op"]>;
  return resolve(spec, at);
}

/** Remembers what a delete removes, so that a later `revive` can bring it back. */
function rememberDeleted(change: Change, state: Working, world: World): void {
  if (change.op !== "delete") return;
  if ("person" in change) {
    const gone = state.persons.get(change.person);
    if (gone) world.deleted.persons.set(gone.id, gone);
    return;
  }
  const gone = state.employees.get(change.employee);
  if (gone) world.deleted.employees.set(gone.id, gone);
}

/** The step's changes, each resolved against the state its predecessors left. */
export function resolveChanges(
  specs: readonly ChangeSpec[],
  state: DirectoryState,
  world: World,
): ResolvedChange[] {
  const working = copyOf(state);
  const resolved: ResolvedChange[] = [];
  for (const spec of specs) {
    for (const one of resolveOne(spec, { state: working, world })) {
      resolved.push(one);
      rememberDeleted(one.change, working, world);
      const after = applied(working, [one.change]);
      working.persons = after.persons;
      working.employees = after.employees;
    }
  }
  return resolved;
}

/** A load file and what the directory must be after it (unless `dangling` is not empty: refused). */
export interface StepFile {
  readonly text: string;
  readonly expected: DirectoryState;
  readonly dangling: readonly DanglingReference[];
}

const dataFileText = (state: DirectoryState) =>
  JSON.stringify({ persons: [...state.persons.values()], employees: [...state.employees.values()] });

/** The file of a step: its changes as lines, the state they lead to, or its upserts' last values. */
export function stepFile(
  mode: LoadMode,
  resolved: readonly ResolvedChange[],
  committed: DirectoryState,
): StepFile {
  const changes = resolved.map(({ change }) => change);
  const outcome = (expected: DirectoryState, text: string) => ({
    text,
    expected,
    dangling: danglingOf(expected),
  });
  if (mode === "changes")
    return outcome(applied(committed, changes), resolved.map(({ line }) => JSON.stringify(line)).join("\n"));
  if (mode === "snapshot") {
    const expected = applied(committed, changes);
    return outcome(expected, dataFileText(expected));
  }
  // A data file holds an id once: the last upsert of each.
  const last = new Map<string, Change>();
  for (const change of changes) {
    if (change.op !== "upsert") continue;
    last.set("person" in change ? `p${change.person.id}` : `e${change.employee.id}`, change);
  }
  const upserts = [...last.values()];
  const lines = upserts.map((change) =>
    JSON.stringify("person" in change ? { person: change.person } : { employee: change.employee }),
  );
  // An empty NDJSON file is refused as empty: an empty merge is written as JSON.
  const expected = applied(committed, upserts);
  return outcome(
    expected,
    lines.length === 0 ? dataFileText({ persons: new Map(), employees: new Map() }) : lines.join("\n"),
  );
}
