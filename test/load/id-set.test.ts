import fc from "fast-check";
import { IdSet } from "../../lib/load/id-set.js";
import { LoadIds } from "../../lib/load/load-ids.js";

const uuid = fc.uuid();

describe("IdSet", () => {
  it("holds exactly the ids added, whatever their number (it grows), and says which were new", () => {
    fc.assert(
      fc.property(fc.array(uuid, { maxLength: 3_000 }), fc.array(uuid, { maxLength: 50 }), (ids, others) => {
        const set = new IdSet();
        const seen = new Set<string>();
        for (const id of ids) {
          expect(set.add(id)).toBe(!seen.has(id));
          seen.add(id);
        }
        expect(set.size).toBe(seen.size);
        for (const id of ids) expect(set.has(id)).toBe(true);
        for (const id of others) expect(set.has(id)).toBe(seen.has(id));
      }),
      { numRuns: 30 },
    );
  });

  it("reads an id in any case, with or without dashes, as the same id", () => {
    const set = new IdSet();
    set.add("0f8fad5b-d9cb-469f-a165-70867728950e");
    expect(set.has("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe(true);
    expect(set.add("0f8fad5bd9cb469fa16570867728950e")).toBe(false);
  });

  it("tells apart ids that share long prefixes (time-ordered uuids)", () => {
    const set = new IdSet();
    const ids = Array.from(
      { length: 5_000 },
      (_, i) => `01890000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`,
    );
    for (const id of ids) set.add(id);
    expect(set.size).toBe(ids.length);
    expect(set.has("01890000-0000-7000-8000-ffffffffffff")).toBe(false);
  });

  it("comes back from its bytes with the same ids, 16 bytes an id", () => {
    fc.assert(
      fc.property(fc.uniqueArray(uuid, { maxLength: 2_000 }), (ids) => {
        const set = new IdSet();
        for (const id of ids) set.add(id);
        const bytes = set.toBytes();
        expect(bytes.length).toBe(16 * ids.length);
        const back = IdSet.fromBytes(bytes);
        expect(back.size).toBe(ids.length);
        for (const id of ids) expect(back.has(id)).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  it("refuses what is not a uuid, and bytes that are not 16 to an id", () => {
    expect(() => new IdSet().add("not-a-uuid")).toThrow(/not a uuid/);
    expect(() => IdSet.fromBytes(new Uint8Array(17))).toThrow(/16 to an id/);
  });
});

describe("LoadIds", () => {
  const person = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const upsertPerson = { op: "upsert", person: { id: person } } as never;
  const deleteEmployee = { op: "delete", employee: person } as const;

  it("keeps persons and employee records apart: one uuid may name one of each", () => {
    const ids = new LoadIds();
    expect(ids.add(upsertPerson)).toBe(true);
    expect(ids.add(deleteEmployee)).toBe(true);
    expect(ids.add(upsertPerson)).toBe(false);
    expect(ids.holds("person", person) && ids.holds("employee", person)).toBe(true);
  });

  it("comes back from its bytes with both sets", () => {
    const ids = new LoadIds();
    ids.add(upsertPerson);
    const back = LoadIds.fromBytes(ids.toBytes());
    expect(back.holds("person", person)).toBe(true);
    expect(back.holds("employee", person)).toBe(false);
    expect(back.size).toBe(1);
    expect(() => LoadIds.fromBytes(new Uint8Array(3))).toThrow(/at least 8 bytes/);
  });

  it("comes back from a Buffer inside a larger one (bytes read from a file)", () => {
    const ids = new LoadIds();
    ids.add(upsertPerson);
    ids.add(deleteEmployee);
    const pool = Buffer.alloc(4096, 0xab);
    const bytes = ids.toBytes();
    pool.set(bytes, 13);
    const back = LoadIds.fromBytes(pool.subarray(13, 13 + bytes.length));
    expect(back.holds("person", person) && back.holds("employee", person)).toBe(true);
    expect(back.size).toBe(2);
  });
});
