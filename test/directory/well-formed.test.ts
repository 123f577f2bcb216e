/**
 * Text that is not well-formed Unicode (a lone surrogate, written `\uD800` in JSON) is refused by
 * every load, naming the record's line and the field, never quoting the text: stored, it would
 * have turned into U+FFFD. And a refusal's field, which quotes the file's own field names, is
 * redacted and cut like any caller text.
 */
import fc from "fast-check";
import { DataFileError, parseDataFile } from "../../lib/directory/source.js";
import { findIllFormedText } from "../../lib/directory/well-formed.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { readChanges } from "../../lib/load/change-lines.js";
import type { OpenBytes } from "../../lib/load/lines.js";
import { validEmployee, validPerson } from "./fixtures.js";

/** Independent of `isWellFormed`: a string survives UTF-8 only when it holds no lone surrogate. */
const survivesUtf8 = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;

/** Any UTF-16 unit: surrogates paired or lone, among any code point. */
const anyUnit = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);
/** Text holding at least one lone surrogate. */
const illFormed = fc
  .tuple(fc.string({ unit: anyUnit, maxLength: 6 }), fc.string({ unit: anyUnit, maxLength: 6 }))
  .map(([before, after]) => `${before}\uDC00${after}`)
  .filter((text) => !survivesUtf8(text));

/** Free-text fields of an employee record, by path. */
const TEXT_FIELDS: readonly (readonly (string | number)[])[] = [
  ["demographics", "firstName"],
  ["demographics", "lastName"],
  ["contact", "email"],
  ["contact", "address", "city"],
  ["externalIds", 0, "system_id"],
  ["coverages", 0, "planTier"],
];

/** `contact.address.city`, `externalIds[0].system_id`: the loader's way of naming a field. */
const fieldName = (path: readonly (string | number)[]) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${key}`)).join("");

/** A copy of `record` with the text at `path` replaced. */
function withText(record: object, path: readonly (string | number)[], text: string): object {
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = text;
  return copy;
}

function refusal(run: () => unknown): DataFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof DataFileError) return error;
    throw error;
  }
  throw new Error("expected the file to be refused");
}

const served = (text: string): OpenBytes =>
  async function* (offset) {
    yield Buffer.from(text, "utf8").subarray(offset);
  };

async function changesRefusal(text: string): Promise<DataFileError> {
  try {
    for await (const _ of readChanges(served(text), "changes")) {
      // read every change
    }
  } catch (error) {
    if (error instanceof DataFileError) return error;
    throw error;
  }
  throw new Error("expected the changes file to be refused");
}

describe("ill-formed text in a load", () => {
  it("refuses a lone surrogate in any text field, naming the line and the field (NDJSON)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TEXT_FIELDS), illFormed, fc.nat(3), (path, text, before) => {
        const bad = withText(validEmployee(), path, text);
        const lines = [
          ...Array(before)
            .fill({ person: validPerson() })
            .map((line, i) => ({
              person: {
                ...line.person,
                id: `3f2504e0-4f89-41d3-9a0c-0305e82c33${String(i).padStart(2, "0")}`,
              },
            })),
          { employee: bad },
        ];
        const error = refusal(() => parseDataFile(lines.map((line) => JSON.stringify(line)).join("\n")));
        expect(error.record).toBe(`employee at line ${before + 1} (id ${validEmployee().id})`);
        expect(error.field).toBe(fieldName(path));
        expect(error.rule).toBe("is not well-formed Unicode (a lone surrogate)");
        expect(error.message.isWellFormed()).toBe(true);
      }),
    );
  });

  it("refuses it in a JSON data file and in a changes file too", async () => {
    const bad = {
      ...validEmployee(),
      demographics: { ...validEmployee().demographics, lastName: "a\uD800" },
    };
    const json = refusal(() => parseDataFile(JSON.stringify({ persons: [validPerson()], employees: [bad] })));
    expect([json.record, json.field]).toEqual([`employees[0] (id ${bad.id})`, "demographics.lastName"]);
    const changes = await changesRefusal(
      [
        { op: "upsert", person: validPerson() },
        { op: "upsert", employee: bad },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    expect(changes.record).toMatch(/line 2/);
    expect(changes.field).toBe("demographics.lastName");
  });

  it("refuses a field name that is not well-formed without quoting it", () => {
    const error = refusal(() =>
      parseDataFile(JSON.stringify({ employee: { ...validEmployee(), contact: { "\uD800x": 1 } } })),
    );
    expect([error.field, error.rule]).toEqual([
      "contact",
      "holds a field name that is not well-formed Unicode (a lone surrogate)",
    ]);
    expect(error.message.isWellFormed()).toBe(true);
  });

  it("finds ill-formed text exactly where UTF-8 would change it", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: anyUnit, maxLength: 4 }), { maxLength: 4 }), (texts) => {
        const value = { a: texts, b: { c: texts.at(-1) ?? null } };
        const first = texts.findIndex((text) => !survivesUtf8(text));
        expect(findIllFormedText(value)).toEqual(
          first === -1 ? undefined : { path: ["a", first], inFieldName: false },
        );
      }),
    );
  });
});

describe("caller text in a refusal's field", () => {
  it("redacts key text used as a field name, whatever its prefix, and cuts a long one", () => {
    const rest = generateApiKey("live").slice("pd_live_".length);
    for (const name of [`PD_LIVE_${rest}`, `pd-live-${rest}`, rest]) {
      const error = refusal(() =>
        parseDataFile(JSON.stringify({ employee: { ...validEmployee(), [name]: 1 } })),
      );
      expect(error.rule).toBe("unknown field");
      expect(error.field).toContain("…[redacted]");
      expect(`${error.message}${error.field}`).not.toContain(rest.slice(0, 12));
    }
    const long = refusal(() =>
      parseDataFile(JSON.stringify({ employee: { ...validEmployee(), ["f-".repeat(5_000)]: 1 } })),
    );
    expect(long.field?.length).toBeLessThan(300);
  });
});
