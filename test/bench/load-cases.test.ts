import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDataset } from "../../lib/bench/dataset.js";
import { edited, type LoadCase, loadCases, otherCompany, stateLines } from "../../lib/bench/load-cases.js";
import { normalizePhone } from "../../lib/directory/phone.js";
import type { SourceEmployee } from "../../lib/directory/source.js";
import { loadFile } from "../../lib/load/load-file.js";
import { type DirectoryState, memoryDirectory } from "../../lib/store/memory/memory-directory.js";

const RECORDS = 450;

function initialState(): DirectoryState {
  const { data } = buildDataset({ records: RECORDS, companies: 1, seed: 7 });
  return {
    persons: new Map(data.persons.map((person) => [person.id, person])),
    employees: new Map(data.employees.map((employee) => [employee.id, employee])),
  };
}

const sorted = (map: ReadonlyMap<string, unknown>) =>
  [...map]
    .map(([id, value]): [string, string] => [id, JSON.stringify(value)])
    .sort(([a], [b]) => (a < b ? -1 : 1));
const sameState = (actual: DirectoryState, expected: DirectoryState) => {
  expect(sorted(actual.persons)).toEqual(sorted(expected.persons));
  expect(sorted(actual.employees)).toEqual(sorted(expected.employees));
};
/** Records whose stored value differs between two states (present in both). */
const changedIds = (before: DirectoryState, after: DirectoryState) =>
  [...after.employees]
    .filter(([id, record]) => {
      const old = before.employees.get(id);
      return old !== undefined && JSON.stringify(old) !== JSON.stringify(record);
    })
    .map(([id]) => id);

describe("loadCases", () => {
  const initial = initialState();
  const cases = loadCases(initial);
  const stateBefore = (i: number): DirectoryState => (i === 0 ? initial : (cases[i - 1] as LoadCase).next);
  const byName = (fragment: string) => {
    const i = cases.findIndex((c) => c.name.includes(fragment));
    return { load: cases[i] as LoadCase, before: stateBefore(i) };
  };
  const onlyRecord = (state: DirectoryState, ids: readonly string[]): SourceEmployee => {
    expect(ids).toHaveLength(1);
    return state.employees.get(ids[0] ?? "") as SourceEmployee;
  };

  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "load-cases-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("gives files the real load applies to exactly the state each case says comes next", async () => {
    for (const [i, load] of cases.entries()) {
      const file = join(dir, `case-${i}.ndjson`);
      await writeFile(file, [...load.lines()].map((line) => `${line}\n`).join(""));
      const directory = memoryDirectory(stateBefore(i));
      await loadFile(file, load.mode, directory, { allowShrink: true });
      sameState(directory.state(), load.next);
    }
  });

  it("changes one record R in one line: its phone and updatedAt, then its company, then its person", () => {
    const changed = byName("one record changed");
    const [rId] = changedIds(changed.before, changed.load.next);
    const original = changed.before.employees.get(rId ?? "") as SourceEmployee;
    const r = onlyRecord(changed.load.next, changedIds(changed.before, changed.load.next));
    expect([...changed.load.lines()]).toHaveLength(1);
    expect(original.personId).not.toBeNull();
    expect({ ...r, contact: original.contact, updatedAt: original.updatedAt }).toEqual(original);
    expect(r.contact.phone).not.toBe(original.contact.phone);

    const moved = byName("moved");
    const m = onlyRecord(moved.load.next, changedIds(moved.before, moved.load.next));
    expect(m.id).toBe(r.id);
    expect([...initial.employees.values()].some((record) => record.companyId === m.companyId)).toBe(false);
    expect({ ...m, companyId: r.companyId }).toEqual(r);

    const relinked = byName("re-linked");
    const l = onlyRecord(relinked.load.next, changedIds(relinked.before, relinked.load.next));
    expect(l.id).toBe(r.id);
    expect(l.personId).not.toBe(m.personId);
    expect(initial.persons.has(l.personId ?? "")).toBe(true);
    expect({ ...l, personId: m.personId }).toEqual(m);
  });

  it("renames another linked record in one line, to a last name the file already holds", () => {
    const renamed = byName("renamed");
    const changedR = byName("one record changed");
    const [rId] = changedIds(changedR.before, changedR.load.next);
    const [id] = changedIds(renamed.before, renamed.load.next);
    const original = renamed.before.employees.get(id ?? "") as SourceEmployee;
    const n = onlyRecord(renamed.load.next, changedIds(renamed.before, renamed.load.next));
    expect([...renamed.load.lines()]).toHaveLength(1);
    expect(n.id).not.toBe(rId);
    expect(n.personId).not.toBeNull();
    expect(n.demographics.lastName).not.toBe(original.demographics.lastName);
    const lastNames = [...initial.employees.values()].map((record) => record.demographics.lastName);
    expect(lastNames).toContain(n.demographics.lastName);
    expect({
      ...n,
      demographics: original.demographics,
      contact: original.contact,
      updatedAt: original.updatedAt,
    }).toEqual(original);
  });

  it("deletes R with one change line", () => {
    const deleted = byName("deleted");
    const relinked = byName("re-linked");
    const [rId] = changedIds(relinked.before, relinked.load.next);
    expect([...deleted.load.lines()]).toHaveLength(1);
    expect(deleted.load.mode).toBe("changes");
    expect(deleted.before.employees.has(rId ?? "")).toBe(true);
    expect(deleted.load.next.employees.has(rId ?? "")).toBe(false);
    expect(deleted.load.next.employees.size).toBe(deleted.before.employees.size - 1);
  });

  it("changes 1% of the records in a changes file, and another 1% in a snapshot", () => {
    const changes = byName("1% of records changed (changes)");
    const snapshot = byName("snapshot, 1%");
    const onePercent = (state: DirectoryState) => Math.ceil(state.employees.size / 100);
    const inChanges = changedIds(changes.before, changes.load.next);
    const inSnapshot = changedIds(snapshot.before, snapshot.load.next);
    expect([...changes.load.lines()]).toHaveLength(onePercent(changes.before));
    expect(inChanges).toHaveLength(onePercent(changes.before));
    expect(inSnapshot).toHaveLength(onePercent(snapshot.before));
    expect(inSnapshot.filter((id) => inChanges.includes(id))).toEqual([]);
    expect(snapshot.load.next.employees.size).toBe(snapshot.before.employees.size);
  });

  it("drops 1% of the records in a snapshot, every person and other record unchanged", () => {
    const dropping = byName("snapshot dropping 1%");
    const { before, load } = dropping;
    expect(load.mode).toBe("snapshot");
    expect(load.next.employees.size).toBe(before.employees.size - Math.ceil(before.employees.size / 100));
    expect(changedIds(before, load.next)).toEqual([]);
    expect([...load.next.employees.keys()].every((id) => before.employees.has(id))).toBe(true);
    expect(sorted(load.next.persons)).toEqual(sorted(before.persons));
  });

  it("loads the unchanged directory whole as a snapshot, every person and record once", () => {
    const unchanged = byName("snapshot, unchanged");
    sameState(unchanged.load.next, unchanged.before);
    expect(unchanged.load.mode).toBe("snapshot");
    const lines = [...unchanged.load.lines()];
    expect(lines).toHaveLength(unchanged.before.persons.size + unchanged.before.employees.size);
    expect(lines).toEqual([...stateLines(unchanged.before)]);
  });
});

describe("edited", () => {
  const [record] = buildDataset({ records: 5, companies: 1, seed: 3 }).data.employees;
  const original = record as SourceEmployee;

  it("gives a phone that normalizes and an updatedAt after every demo date, distinct for each n", () => {
    const a = edited(original, 1);
    const b = edited(original, 2);
    expect(normalizePhone(a.contact.phone ?? "").ok).toBe(true);
    expect(a.updatedAt).not.toBe(b.updatedAt);
    expect(Date.parse(a.updatedAt)).toBeGreaterThan(Date.parse("2026-10-31T00:00:00Z"));
    expect({ ...a, contact: original.contact, updatedAt: original.updatedAt }).toEqual(original);
  });
});

describe("otherCompany", () => {
  it("names a company no record of the state has", () => {
    const state = initialState();
    const taken = { ...state, employees: new Map([["x", { companyId: "moved-to-1" } as SourceEmployee]]) };
    expect(otherCompany(state)).toBe("moved-to-1");
    expect(otherCompany(taken)).toBe("moved-to-2");
  });
});
