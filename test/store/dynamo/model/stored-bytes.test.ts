/**
 * The stored bytes of the directory table, pinned: keys and values of docs/data-model.md as fixed
 * bytes. Tables written by code of the same format must still read, so a change here is a change
 * of format (and of FORMAT, which refuses tables of another), never a refactor. Compressed values are pinned in the reading direction only: brotli's output may change
 * with its library, and any output decompresses the same.
 */
import type { SourceEmployee, SourcePerson } from "../../../../lib/directory/source.js";
import {
  instantBytes,
  instantKeyOf,
  instantOrderPrefix,
  orderKey,
  orderKeyBytes,
  orderKeyOfBytes,
  orderKeyParts,
  phoneBytes,
  uuidBytes,
  uuidOf,
} from "../../../../lib/store/binary-keys.js";
import { ByteWriter, compareBytes, FormatError } from "../../../../lib/store/bytes.js";
import { keyText } from "../../../../lib/store/dynamo/model/batch.js";
import {
  compress,
  decodeGramBlock,
  decodeLocation,
  decodeNamePairs,
  decodePostingPage,
  decodeScopeCompanies,
  decodeScopeMarker,
  decompress,
  encodeGramBlock,
  encodeLocation,
  encodeNamePairs,
  encodePostingPage,
  encodeScopeCompanies,
  encodeScopeMarker,
} from "../../../../lib/store/dynamo/model/codec.js";
import {
  bundleItems,
  idEntryItem,
  locationItem,
  personEntryItems,
  recordEntryItems,
  recordEntryKeys,
  recordItem,
  recordKey,
} from "../../../../lib/store/dynamo/model/items.js";
import {
  bundleGenOf,
  bundlePartOf,
  bundleSort,
  companyOfPartition,
  companyPartition,
  entrySort,
  FAMILY,
  familyRange,
  genOf,
  gramBlockRange,
  gramBlockSort,
  gramCensusSort,
  gramMarkerSort,
  idOfPartition,
  journalPartition,
  journalSort,
  ORDER as LAYOUT_ORDER,
  LOCATION_SORT,
  LOWEST_ORDER_KEY,
  locationPartition,
  MANIFEST_KEY,
  orderIndexPartSort,
  orderIndexSort,
  orderOfSort,
  personPartition,
  postingRange,
  postingSort,
} from "../../../../lib/store/dynamo/model/layout.js";

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string) =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

const PERSON = "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3";
const RECORD = "f0e1d2c3-b4a5-4968-8776-655443322110";
const CREATED = "2024-02-29T12:34:56.123456789Z";
const PERSON_CREATED = "1969-12-31T23:59:59.999999999Z";
const ORDER = orderKey(CREATED, RECORD);
const PERSON_ORDER = orderKey(PERSON_CREATED, PERSON);
const BEFORE = instantOrderPrefix(PERSON_CREATED);
const LOCATION_IN_ACME = {
  companyId: "acme",
  order: ORDER,
  personId: PERSON,
  named: true,
  hash: "0123456789abcdef",
  names: "1122334455667788",
  entries: 2,
};
const LOCATION = { ...LOCATION_IN_ACME, companyId: "acme-01.x_Y" };

const record: SourceEmployee = {
  id: RECORD,
  companyId: "acme-01.x_Y",
  personId: PERSON,
  externalIds: [{ system: "payroll_system", system_id: "PR-1" }],
  demographics: { firstName: "Zoë", lastName: "García", dateOfBirth: "1990-05-01", gender: null },
  contact: {
    email: null,
    phone: "(555) 123-4567",
    address: { line1: null, line2: null, city: null, state: null, postalCode: null },
  },
  membership: { state: null, userState: null, invitation: null },
  participation: null,
  coverages: [],
  createdAt: CREATED,
  updatedAt: "2024-03-01T00:00:00Z",
};
const unnamed: SourceEmployee = {
  ...record,
  id: "00000000-0000-4000-8000-000000000001",
  demographics: { ...record.demographics, firstName: null, lastName: null },
  contact: { ...record.contact, phone: "not a phone" },
};
const person: SourcePerson = { id: PERSON, createdAt: PERSON_CREATED, updatedAt: "2024-01-01T00:00:00Z" };

/** Items with their Binary attributes as hex, and `d` left out where it is compressed. */
const itemHex = (item: Record<string, unknown>, compressed: boolean) =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([name]) => !(compressed && name === "d"))
      .map(([name, value]) => [name, value instanceof Uint8Array ? hex(value) : value]),
  );

describe("stored keys are byte for byte those of the documented layout", () => {
  it.each([
    ["instant", () => instantBytes(CREATED), "8065e079f0075bcd15"],
    ["instant before the epoch", () => instantBytes(PERSON_CREATED), "7fffffffff3b9ac9ff"],
    ["instant at year 0000", () => instantBytes("0000-01-01T00:00:00.000000000Z"), "71868b840000000000"],
    ["instant at year 9999", () => instantBytes("9999-12-31T23:59:59.999999999Z"), "bafff4417f3b9ac9ff"],
    ["uuid", () => uuidBytes(RECORD), "f0e1d2c3b4a549688776655443322110"],
    ["phone", () => phoneBytes("5551234567"), "014ae11e07"],
    ["phone of zeros", () => phoneBytes("0000000000"), "0000000000"],
    ["phone of nines", () => phoneBytes("9999999999"), "02540be3ff"],
    ["order key", () => orderKeyBytes(ORDER), "8065e079f0075bcd15f0e1d2c3b4a549688776655443322110"],
    [
      "person order key",
      () => orderKeyBytes(PERSON_ORDER),
      "7fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
    ],
    ["company partition", () => companyPartition("acme-01.x_Y"), "61636d652d30312e785f59"],
    ["person partition", () => personPartition(PERSON), "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3"],
    ["location partition", () => locationPartition(RECORD), "01f0e1d2c3b4a549688776655443322110"],
    ["journal partition", () => journalPartition(0x01020304), "fe01020304"],
    ["manifest partition", () => MANIFEST_KEY.p, "ff6d"],
    ["manifest sort", () => MANIFEST_KEY.s, "00"],
    ["location sort", () => LOCATION_SORT, "00"],
    ["bundle sort of the last generation", () => bundleSort(0xfffffffe, 0xffff), "fffffffeffff"],
    [
      "record sort",
      () => entrySort(FAMILY.record, ORDER, 5),
      "038065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
    ],
    [
      "person names sort",
      () => entrySort(FAMILY.personNames, PERSON_ORDER, 7),
      "057fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d300000007",
    ],
    ["family range low, open", () => familyRange(FAMILY.employmentKey, undefined, undefined).low, "01"],
    [
      "family range high, open",
      () => familyRange(FAMILY.employmentKey, undefined, undefined).high,
      "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    ],
    [
      "family range low, from a key",
      () => familyRange(FAMILY.employmentNames, ORDER, BEFORE).low,
      "048065e079f0075bcd15f0e1d2c3b4a549688776655443322110",
    ],
    [
      "family range high, before an instant",
      () => familyRange(FAMILY.employmentNames, ORDER, BEFORE).high,
      "047fffffffff3b9ac9ff",
    ],
    ["bundle sort", () => bundleSort(3, 258), "000000030102"],
    [
      "posting sort, last name",
      () => postingSort("lastName", "cía", ORDER, 5),
      "0b020463c3ad618065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
    ],
    [
      "posting sort, first name",
      () => postingSort("firstName", "zoë", ORDER, 5),
      "0b01047a6fc3ab8065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
    ],
    [
      "posting range low, open",
      () => postingRange("firstName", "zoë", undefined, undefined).low,
      // Above the gram's blocks (0x00), below every order key.
      "0b01047a6fc3ab01",
    ],
    [
      "posting range low, from a first block's lowest key",
      () => postingRange("firstName", "zoë", LOWEST_ORDER_KEY, undefined).low,
      "0b01047a6fc3ab01",
    ],
    [
      "gram block sort, first block",
      () => gramBlockSort("firstName", "zoë", LOWEST_ORDER_KEY, 5),
      "0b01047a6fc3ab" + "00".repeat(26) + "00000005",
    ],
    [
      "gram block sort, from a key",
      () => gramBlockSort("lastName", "cía", ORDER, 5),
      "0b020463c3ad61008065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
    ],
    ["gram block range low", () => gramBlockRange("firstName", "zoë").low, "0b01047a6fc3ab00"],
    [
      "posting range high, before an instant",
      () => postingRange("firstName", "zoë", ORDER, BEFORE).high,
      "0b01047a6fc3ab7fffffffff3b9ac9ff",
    ],
    ["names census sort", () => gramCensusSort(3, 258), "0c000000030102"],
    ["postings marker sort", () => gramMarkerSort(3), "0f00000003"],
    ["journal sort", () => journalSort(9), "00000009"],
    ["order index sort", () => orderIndexSort(LAYOUT_ORDER.persons, 3), "0a0900000003"],
    ["order index part sort", () => orderIndexPartSort(LAYOUT_ORDER.persons, 258, 3), "0e09010200000003"],
  ])("%s", (_name, bytes, expected) => {
    expect(hex(bytes())).toBe(expected);
  });

  it("writes a gram block's companions: kind 2, its count, then each companion (sorted, UTF-8) and its count", () => {
    const companions = new Map([
      ["é", 1],
      ["a", 200],
    ]);
    const stored = "0402000004010201" + "61c801" + "02c3a901";
    expect(hex(encodeGramBlock(1025, companions))).toBe(stored);
    expect(decodeGramBlock(fromHex(stored))).toEqual({ n: 1025, companions });
    expect(decodeGramBlock(fromHex("04020000000100"))).toEqual({ n: 1, companions: new Map() });
    // Another kind, out of order, a companion counted 0, or bytes past the end: refused.
    expect(() => decodeGramBlock(fromHex("040100000401"))).toThrow(FormatError);
    expect(() => decodeGramBlock(fromHex("04030000040100"))).toThrow(FormatError);
    expect(() => decodeGramBlock(fromHex("040200000401" + "0202c3a901" + "0161c801"))).toThrow(FormatError);
    expect(() => decodeGramBlock(fromHex("040200000401" + "01016100"))).toThrow(FormatError);
    expect(() => decodeGramBlock(fromHex(`${stored}00`))).toThrow(FormatError);
  });

  it("writes a posting page: kind 3, its count, then each posting's order key, generation and pairs", () => {
    const pairs = encodeNamePairs([{ firstName: "zoë", lastName: "garcía" }]);
    const order = "8065e079f0075bcd15f0e1d2c3b4a549688776655443322110";
    // The pairs' value without its format byte, after a varint of its length (14).
    const stored = `0403` + "01" + order + "00000005" + "0e" + "01057a6fc3ab0867617263c3ad61";
    expect(hex(encodePostingPage([{ order: ORDER, gen: 5, pairs }]))).toBe(stored);
    expect(decodePostingPage(fromHex(stored), ORDER)).toEqual([{ order: ORDER, gen: 5, pairs }]);
    expect(() => decodePostingPage(fromHex(`${stored}00`), ORDER)).toThrow(FormatError);
    expect(() => decodePostingPage(fromHex(`0402${stored.slice(4)}`), ORDER)).toThrow(FormatError);
  });

  it("writes a key's text as hex partition / hex sort (journal entries hold it)", () => {
    expect(keyText({ p: personPartition(PERSON), s: bundleSort(2, 1) })).toBe(
      "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3/000000020001",
    );
  });
});

describe("stored keys read back", () => {
  it("reads instants, uuids and order keys", () => {
    expect(instantKeyOf(fromHex("8065e079f0075bcd15"))).toBe(CREATED);
    expect(instantKeyOf(fromHex("007fffffffff3b9ac9ff"), 1)).toBe(PERSON_CREATED);
    expect(instantKeyOf(fromHex("71868b840000000000"))).toBe("0000-01-01T00:00:00.000000000Z");
    expect(instantKeyOf(fromHex("bafff4417f3b9ac9ff"))).toBe("9999-12-31T23:59:59.999999999Z");
    expect(uuidOf(fromHex("aaf0e1d2c3b4a549688776655443322110"), 1)).toBe(RECORD);
    expect(orderKeyParts(ORDER)).toEqual({ createdKey: CREATED, id: RECORD });
  });

  it("reads partitions and sort keys", () => {
    expect(companyOfPartition(fromHex("61636d652d30312e785f59"))).toBe("acme-01.x_Y");
    expect(idOfPartition(fromHex("000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3"))).toBe(PERSON);
    const sort = fromHex("038065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005");
    expect(genOf(sort)).toBe(5);
    expect(orderOfSort(sort)).toBe(ORDER);
    expect(bundleGenOf(fromHex("000000030102"))).toBe(3);
    expect(bundlePartOf(fromHex("000000030102"))).toBe(258);
  });
});

describe("stored values are byte for byte those of the documented layout", () => {
  it.each([
    ["no pairs", [], "0400"],
    ["one pair", [{ firstName: "zoë", lastName: "garcía" }], "0401057a6fc3ab0867617263c3ad61"],
    [
      "pairs with one name each",
      [
        { firstName: "ann", lastName: null },
        { firstName: null, lastName: "lee" },
      ],
      "040204616e6e0000046c6565",
    ],
    // 201 (length + 1) is a two-byte varint: 0xc9 0x01.
    [
      "a name longer than 127 bytes",
      [{ firstName: "a".repeat(200), lastName: null }],
      `0401c901${"61".repeat(200)}00`,
    ],
  ])("name pairs: %s", (_name, pairs, expected) => {
    expect(hex(encodeNamePairs(pairs))).toBe(expected);
    expect(decodeNamePairs(fromHex(expected))).toEqual(pairs);
  });

  it.each([
    [
      "with a person, named",
      LOCATION_IN_ACME,
      "04030461636d658065e079f0075bcd15f0e1d2c3b4a5496887766554433221100a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3" +
        "00000002" +
        "1122334455667788" +
        "0123456789abcdef",
    ],
    [
      "without a person, unnamed",
      {
        companyId: "b",
        order: ORDER,
        personId: null,
        named: false,
        hash: "fedcba9876543210",
        names: "8877665544332211",
        entries: 258,
      },
      "040001628065e079f0075bcd15f0e1d2c3b4a549688776655443322110" +
        "00000102" +
        "8877665544332211" +
        "fedcba9876543210",
    ],
  ])("location: %s", (_name, location, expected) => {
    expect(hex(encodeLocation(location))).toBe(expected);
    expect(decodeLocation(fromHex(expected))).toEqual(location);
  });

  it("scope registry values: companies, then the home when it is another scope's partition", () => {
    // 2 companies: "a" (1 byte), "bc" (2 bytes).
    expect(hex(encodeScopeCompanies(["a", "bc"]))).toBe("04020161026263");
    expect(decodeScopeCompanies(fromHex("04020161026263"))).toEqual({ companies: ["a", "bc"] });
    const home = "00112233445566778899aabbccddeeff";
    expect(hex(encodeScopeCompanies(["a", "bc"], home))).toBe(`04020161026263${home}`);
    expect(decodeScopeCompanies(fromHex(`04020161026263${home}`))).toEqual({ companies: ["a", "bc"], home });
  });

  it("scope postings markers: the build's generation, then each changed company and its change's", () => {
    const marker = {
      base: 3,
      changed: new Map([
        ["b", 9],
        ["a", 7],
      ]),
    };
    // Companies in byte order: "a" at 7, "b" at 9.
    expect(hex(encodeScopeMarker(marker))).toBe("040000000302016100000007016200000009");
    expect(decodeScopeMarker(fromHex("040000000302016100000007016200000009"))).toEqual({
      base: 3,
      changed: new Map([
        ["a", 7],
        ["b", 9],
      ]),
    });
    // The format byte alone, or bytes past the end: refused.
    expect(() => decodeScopeMarker(fromHex("04"))).toThrow(FormatError);
    expect(() => decodeScopeMarker(fromHex("04000000030000"))).toThrow(FormatError);
  });

  it("reads a compressed value written by earlier code", () => {
    expect(decompress(fromHex("040b0a807b2261223a312c226e616d65223a225a6fc3ab227d03"))).toEqual({
      a: 1,
      name: "Zoë",
    });
    const written = compress({ a: 1, name: "Zoë" });
    expect(written[0]).toBe(4);
    expect(decompress(written)).toEqual({ a: 1, name: "Zoë" });
  });

  it("refuses a value in another format", () => {
    const otherFormat = (text: string) => fromHex(`02${text.slice(2)}`);
    expect(() => decodeNamePairs(otherFormat("0301057a6fc3ab0867617263c3ad61"))).toThrow(FormatError);
    expect(() =>
      decodeLocation(
        otherFormat(
          "030001628065e079f0075bcd15f0e1d2c3b4a549688776655443322110000001028877665544332211fedcba9876543210",
        ),
      ),
    ).toThrow(FormatError);
    expect(() => decompress(otherFormat("030b0a807b2261223a312c226e616d65223a225a6fc3ab227d03"))).toThrow(
      FormatError,
    );
  });
});

describe("stored items are byte for byte those of the documented layout", () => {
  it("writes a record's item, with its entries' generation `e`, and names its key", () => {
    const item = recordItem(record, 5, PERSON_ORDER, 4);
    expect(itemHex(item, true)).toEqual({
      p: "61636d652d30312e785f59",
      s: "038065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
      e: 4,
      t: "014ae11e07",
      q: "7fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
      f: "zoë",
      l: "garcía",
    });
    expect(decompress(item.d as Uint8Array)).toEqual(record);
    expect(keyText(recordKey(LOCATION, 5))).toBe(
      "61636d652d30312e785f59/038065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000005",
    );
  });

  it("writes a record's entries at their own generation, and names their keys", () => {
    expect(recordEntryItems(record, 2).map((item) => itemHex(item, false))).toEqual([
      {
        p: "61636d652d30312e785f59",
        s: "018065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000002",
        d: "04",
      },
      {
        p: "61636d652d30312e785f59",
        s: "048065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000002",
        d: "0401057a6fc3ab0867617263c3ad61",
      },
    ]);
    expect(recordEntryKeys(LOCATION).map(keyText)).toEqual([
      "61636d652d30312e785f59/018065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000002",
      "61636d652d30312e785f59/048065e079f0075bcd15f0e1d2c3b4a54968877665544332211000000002",
    ]);
  });

  it("writes the items of a record with no name and a phone that does not normalize", () => {
    expect(itemHex(recordItem(unnamed, 1, null, 1), true)).toEqual({
      p: "61636d652d30312e785f59",
      s: "038065e079f0075bcd150000000000004000800000000000000100000001",
      e: 1,
    });
    expect(recordEntryItems(unnamed, 1).map((item) => itemHex(item, false))).toEqual([
      {
        p: "61636d652d30312e785f59",
        s: "018065e079f0075bcd150000000000004000800000000000000100000001",
        d: "04",
      },
    ]);
  });

  it("writes a person's entries", () => {
    expect(personEntryItems(person, [record, unnamed], 4).map((item) => itemHex(item, false))).toEqual([
      {
        p: "61636d652d30312e785f59",
        s: "027fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d300000004",
        d: "04",
      },
      {
        p: "61636d652d30312e785f59",
        s: "057fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d300000004",
        d: "0401057a6fc3ab0867617263c3ad61",
      },
      {
        p: "61636d652d30312e785f59",
        s: "067fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d300000004",
        d: "0401057a6fc3ab00",
      },
      {
        p: "61636d652d30312e785f59",
        s: "077fffffffff3b9ac9ff0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d300000004",
        d: "0401000867617263c3ad61",
      },
    ]);
  });

  it("writes a bundle's parts, each starting with the format byte", () => {
    const bundle = { person, employees: [record] };
    const parts = bundleItems(PERSON, bundle, 6, 5, 100);
    expect(parts.map((item) => itemHex(item, true))).toEqual([
      {
        p: "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
        s: "000000060000",
        n: 4,
        k: 1,
        e: 5,
      },
      {
        p: "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
        s: "000000060001",
        n: 4,
        k: 1,
        e: 5,
      },
      {
        p: "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
        s: "000000060002",
        n: 4,
        k: 1,
        e: 5,
      },
      {
        p: "000a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3",
        s: "000000060003",
        n: 4,
        k: 1,
        e: 5,
      },
    ]);
    const body = compress(bundle).subarray(1);
    expect(parts.map((item) => hex(item.d as Uint8Array))).toEqual(
      parts.map((_, index) => `04${hex(body.subarray(index * 100, (index + 1) * 100))}`),
    );
  });

  it("writes id index entries, one partition of 16 a kind by the XOR of the id's bytes", () => {
    expect(itemHex(idEntryItem("employee", RECORD, 3), false)).toEqual({
      p: "fb0100",
      s: "f0e1d2c3b4a54968877665544332211000000003",
      d: "04",
    });
    expect(itemHex(idEntryItem("person", "00000000-0000-4000-8000-00000000000b", 7), false)).toEqual({
      p: "fb000b",
      s: "0000000000004000800000000000000b00000007",
      d: "04",
    });
  });

  it("writes a location item", () => {
    const previous = { gen: 2, data: encodeLocation({ ...LOCATION_IN_ACME, personId: null }) };
    expect(itemHex(locationItem(RECORD, 3, LOCATION_IN_ACME, previous), false)).toEqual({
      p: "01f0e1d2c3b4a549688776655443322110",
      s: "00",
      g: 3,
      d:
        "04030461636d658065e079f0075bcd15f0e1d2c3b4a5496887766554433221100a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3000000021122334455667788" +
        "0123456789abcdef",
      pg: 2,
      pd:
        "04020461636d658065e079f0075bcd15f0e1d2c3b4a549688776655443322110000000021122334455667788" +
        "0123456789abcdef",
    });
    expect(itemHex(locationItem(RECORD, 4, undefined, undefined), false)).toEqual({
      p: "01f0e1d2c3b4a549688776655443322110",
      s: "00",
      g: 4,
    });
  });
});

describe("the bytes of keys in memory", () => {
  const everyByte = Uint8Array.from({ length: 256 }, (_, byte) => byte);

  it("keeps every byte value through an order key's text", () => {
    expect(orderKeyBytes(orderKeyOfBytes(everyByte))).toEqual(everyByte);
  });

  it("orders order keys with < as DynamoDB orders their bytes", () => {
    const keys = [...everyByte].map((byte) => Uint8Array.of(byte, 255 - byte));
    const shuffled = [...keys].reverse();
    const byText = [...shuffled].sort((a, b) => (orderKeyOfBytes(a) < orderKeyOfBytes(b) ? -1 : 1));
    expect(byText).toEqual(keys);
    expect([...shuffled].sort(compareBytes)).toEqual(keys);
    expect(compareBytes(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(-1);
    expect(compareBytes(Uint8Array.of(1, 0), Uint8Array.of(1, 0))).toBe(0);
  });

  it("refuses a value cut short", () => {
    const whole = encodeLocation(LOCATION);
    expect(() => decodeLocation(whole.subarray(0, 20))).toThrow(FormatError);
    expect(() =>
      decodeNamePairs(encodeNamePairs([{ firstName: "ann", lastName: null }]).subarray(0, 4)),
    ).toThrow(FormatError);
  });
});

describe("the byte writer", () => {
  it("leaves what it returned alone when written on after", () => {
    const writer = new ByteWriter(2).u16(0x0102);
    const first = writer.done();
    const second = writer.u8(3).done();
    expect([...first]).toEqual([1, 2]);
    expect([...second]).toEqual([1, 2, 3]);
  });
});
