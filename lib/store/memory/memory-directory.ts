/**
 * The directory in memory: the search rules of `lib/search/matching.ts` applied to every record,
 * with no index and no encoding. It answers exactly what a store must answer, so the use cases are
 * unit-tested on it and the DynamoDB store is checked against it.
 */
import { instantKey } from "../../directory/instant-key.js";
import type { SourceEmployee, SourcePerson } from "../../directory/source.js";
import { employmentMatches, employmentView, inCreatedRange, sortByCreated } from "../../search/matching.js";
import { pageOf } from "../../search/paging.js";
import {
  type Change,
  type DirectoryReader,
  type DirectoryWriter,
  type EmployeesQuery,
  LoadInProgressError,
  type LoadSession,
  type Page,
  type PersonsQuery,
  type PersonWithEmployments,
  type StoredIdsPage,
} from "../port.js";
import { distinctScopes } from "../scopes.js";

/** One state of the directory: persons and employee records by id. */
export interface DirectoryState {
  readonly persons: ReadonlyMap<string, SourcePerson>;
  readonly employees: ReadonlyMap<string, SourceEmployee>;
}

const emptyState = (): DirectoryState => ({ persons: new Map(), employees: new Map() });

function windowOf<T>(sorted: readonly T[], query: { offset: number; limit: number }): Page<T> {
  const { page, pagination } = pageOf(sorted, query.offset, query.limit);
  return { items: page, total: pagination.total };
}

/** Every record linked to each person. */
function recordsByPerson(state: DirectoryState): Map<string, SourceEmployee[]> {
  const byPerson = new Map<string, SourceEmployee[]>();
  for (const record of state.employees.values()) {
    if (record.personId === null) continue;
    const records = byPerson.get(record.personId) ?? [];
    records.push(record);
    byPerson.set(record.personId, records);
  }
  return byPerson;
}

function employeesOf(state: DirectoryState, query: EmployeesQuery): Page<SourceEmployee> {
  const matching = [...state.employees.values()].filter(
    (record) =>
      (query.personId === undefined || record.personId === query.personId) &&
      inCreatedRange(instantKey(record.createdAt), query.created) &&
      employmentMatches(employmentView(record), query.filter),
  );
  return windowOf(sortByCreated(matching), query);
}

function personsOf(state: DirectoryState, query: PersonsQuery): Page<PersonWithEmployments> {
  const byPerson = recordsByPerson(state);
  const matching = [...state.persons.values()].filter(
    (person) =>
      (query.personId === undefined || person.id === query.personId) &&
      inCreatedRange(instantKey(person.createdAt), query.created) &&
      // Company, name and phone hold on one and the same employment.
      (byPerson.get(person.id) ?? []).some((record) =>
        employmentMatches(employmentView(record), query.filter),
      ),
  );
  const page = windowOf(sortByCreated(matching), query);
  return {
    total: page.total,
    items: page.items.map((person) => ({
      person,
      employments: sortByCreated(
        (byPerson.get(person.id) ?? []).filter((record) => query.readable.has(record.companyId)),
      ),
    })),
  };
}

/** A reader over whatever state `current` returns at the moment of each question. */
function memoryReader(current: () => DirectoryState): DirectoryReader {
  return {
    employees: async (query) => employeesOf(current(), query),
    persons: async (query) => personsOf(current(), query),
  };
}

/** A pending state: copies of the maps, changed in place until commit swaps them in. */
function pendingFrom(state: DirectoryState) {
  return { persons: new Map(state.persons), employees: new Map(state.employees) };
}

/** Applies a change; whether it changed what is stored. */
function applyChange(pending: ReturnType<typeof pendingFrom>, change: Change): boolean {
  const same = (stored: unknown, value: unknown) => JSON.stringify(stored) === JSON.stringify(value);
  if (change.op === "upsert") {
    if ("person" in change) {
      const changed = !same(pending.persons.get(change.person.id), change.person);
      pending.persons.set(change.person.id, change.person);
      return changed;
    }
    const changed = !same(pending.employees.get(change.employee.id), change.employee);
    pending.employees.set(change.employee.id, change.employee);
    return changed;
  }
  return "person" in change
    ? pending.persons.delete(change.person)
    : pending.employees.delete(change.employee);
}

export interface MemoryDirectory extends DirectoryReader, DirectoryWriter {
  /** The committed state, for assertions. */
  state(): DirectoryState;
  /**
   * The scopes kept, sorted (for assertions): in memory every search reads the whole state, so a
   * scope changes no answer and no cost; only the list is kept, published with the load.
   */
  scopes(): readonly (readonly string[])[];
}

/** Ids in pages of this many, so callers meet the paging a table's scan gives. */
const IDS_PER_PAGE = 100;

function* idPages(ids: Iterable<string>, cursor: string | undefined): Generator<StoredIdsPage> {
  const sorted = [...ids].sort().filter((id) => cursor === undefined || id > cursor);
  for (let i = 0; i < sorted.length; i += IDS_PER_PAGE) {
    const page = sorted.slice(i, i + IDS_PER_PAGE);
    const more = i + IDS_PER_PAGE < sorted.length;
    yield more ? { ids: page, next: page[page.length - 1] } : { ids: page };
  }
  if (sorted.length === 0) yield { ids: [] };
}

type Pending = ReturnType<typeof pendingFrom>;

function danglingIn(pending: Pending) {
  for (const record of pending.employees.values()) {
    if (record.personId !== null && !pending.persons.has(record.personId))
      return { personId: record.personId, employeeId: record.id };
  }
  return undefined;
}

/** What the directory's loads share: the committed state, the lease, the suspended loads. */
interface LoadHolder {
  committed: DirectoryState;
  lease: { label: string; startedAt: number } | undefined;
  /** Loads a `suspend` left, by token: a resume in this process goes on with the same session. */
  readonly suspended: Map<string, LoadSession>;
  tokens: number;
  scopes: readonly (readonly string[])[];
}

function memoryLoadSession(holder: LoadHolder, mine: { label: string; startedAt: number }): LoadSession {
  const pending = pendingFrom(holder.committed);
  let scopes = holder.scopes;
  holder.tokens += 1;
  const token = String(holder.tokens);
  const release = () => {
    if (holder.lease !== mine) throw new Error("this load no longer holds the lease");
    holder.lease = undefined;
    holder.suspended.delete(token);
  };
  let published = false;
  const session: LoadSession = {
    get published() {
      return published;
    },
    async apply(changes) {
      return changes.filter((change) => applyChange(pending, change)).length;
    },
    async *storedIds(kind, cursor) {
      yield* idPages((kind === "person" ? pending.persons : pending.employees).keys(), cursor);
    },
    danglingReference: async () => danglingIn(pending),
    async keepScopes(lists) {
      scopes = distinctScopes(lists);
    },
    async commit(options = {}) {
      if (!published) {
        if (holder.lease !== mine) throw new Error("this load no longer holds the lease");
        holder.committed = pending;
        holder.scopes = scopes;
        published = true;
        await options.onPublished?.();
      }
      release();
      return {};
    },
    async abort() {
      if (!published) release();
      return true;
    },
    suspend() {
      holder.suspended.set(token, session);
      return { memory: token };
    },
  };
  return session;
}

/** The whole directory in memory, with loads that publish all at once and one load at a time. */
export function memoryDirectory(
  initial: DirectoryState = emptyState(),
  now = () => Date.now(),
): MemoryDirectory {
  const holder: LoadHolder = {
    committed: initial,
    lease: undefined,
    suspended: new Map(),
    tokens: 0,
    scopes: [],
  };
  return {
    ...memoryReader(() => holder.committed),
    state: () => holder.committed,
    scopes: () => holder.scopes,
    async beginLoad(label) {
      const { lease } = holder;
      if (lease) throw new LoadInProgressError(lease.label, lease.startedAt, undefined);
      const mine = { label, startedAt: now() };
      holder.lease = mine;
      return memoryLoadSession(holder, mine);
    },
    async resumeLoad(checkpoint) {
      const resumed = holder.suspended.get(String(checkpoint.memory));
      if (!resumed) throw new Error("this load no longer holds the lease");
      return resumed;
    },
  };
}
