/**
 * The bounds on the search requests' free text: every text field has a maximum length, checked
 * before anything normalizes it, a name a maximum after NFKC, and every text must be well-formed
 * Unicode. Each refusal names the field.
 */
import { jest } from "@jest/globals";
import fc from "fast-check";
import { safeParse } from "zod/mini";
import type * as core from "zod/v4/core";
import { gramsOfSize, normalizeName } from "../../lib/directory/name.js";
import { describeZodError } from "../../lib/http/validation-message.js";
import {
  employeesSearchRequestSchema,
  MAX_NORMALIZED_NAME_LENGTH,
  MAX_PHONE_LENGTH,
  MAX_TEXT_LENGTH,
  personsSearchRequestSchema,
} from "../../lib/search/request-schemas.js";

type Parsed = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

function parse(schema: core.$ZodType, body: unknown): Parsed {
  const result = safeParse(schema, body, { reportInput: true });
  return result.success
    ? { ok: true, data: result.data as Record<string, unknown> }
    : { ok: false, message: describeZodError(result.error) };
}

const ROUTES = [
  { route: "persons", run: (body: Record<string, unknown>) => parse(personsSearchRequestSchema, body) },
  {
    route: "employees",
    run: (body: Record<string, unknown>) =>
      parse(employeesSearchRequestSchema, { companyId: "acme", ...body }),
  },
] as const;

/** Characters NFKC expands most: U+FDFA to 18 characters, U+FB2C (Hebrew shin with dagesh and shin dot) to 3. */
const EXPANDING = ["\uFDFA", "\uFB2C", "\u3316", "\uFDFB", "\u0390"];

/** Any UTF-16 unit: surrogates (high or low, paired or lone) among any code point, and expanding characters. */
const anyUnit = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  fc.constantFrom(...EXPANDING),
);

/** Independent of `isWellFormed`: a string survives UTF-8 only when it holds no lone surrogate. */
const survivesUtf8 = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;

describe.each(ROUTES)("$route search request bounds", ({ run }) => {
  it.each([
    ["firstName", MAX_TEXT_LENGTH],
    ["lastName", MAX_TEXT_LENGTH],
    ["companyId", MAX_TEXT_LENGTH],
  ])("accepts a %s of %i characters and refuses one longer, naming it", (field, max) => {
    expect(run({ [field]: "a".repeat(max) }).ok).toBe(true);
    expect(run({ [field]: "a".repeat(max + 1) })).toEqual({
      ok: false,
      message: `${field}: must be at most ${max} characters`,
    });
  });

  it("refuses a phone over its maximum before reading it", () => {
    expect(run({ phone: `${" ".repeat(MAX_PHONE_LENGTH - 10)}2125550142` }).ok).toBe(true);
    expect(run({ phone: "1".repeat(MAX_PHONE_LENGTH + 1) })).toEqual({
      ok: false,
      message: `phone: must be at most ${MAX_PHONE_LENGTH} characters`,
    });
  });

  it("refuses a name whose NFKC form is over its maximum (U+FDFA is 18 characters after NFKC)", () => {
    const fits = Math.floor(MAX_NORMALIZED_NAME_LENGTH / 18);
    expect(run({ lastName: "\uFDFA".repeat(fits) }).ok).toBe(true);
    expect(run({ lastName: "\uFDFA".repeat(fits + 1) })).toEqual({
      ok: false,
      message: `lastName: must be at most ${MAX_NORMALIZED_NAME_LENGTH} characters after Unicode NFKC and lower-casing`,
    });
  });

  it("refuses a 1 MiB expanding name without normalizing it", () => {
    const normalize = jest.spyOn(String.prototype, "normalize");
    try {
      const parsed = run({ firstName: "\uFDFA".repeat(1 << 20) });
      expect(parsed).toEqual({
        ok: false,
        message: `firstName: must be at most ${MAX_TEXT_LENGTH} characters`,
      });
      expect(normalize).not.toHaveBeenCalled();
    } finally {
      normalize.mockRestore();
    }
  });

  it("normalizes only bounded text, and an accepted name's NFKC form and grams stay bounded", () => {
    const normalize = jest.spyOn(String.prototype, "normalize");
    try {
      fc.assert(
        fc.property(
          fc.constantFrom("firstName", "lastName"),
          fc.string({ unit: anyUnit, minLength: 1, maxLength: 2 * MAX_TEXT_LENGTH }),
          (field, value) => {
            normalize.mockClear();
            const parsed = run({ [field]: value });
            for (const self of normalize.mock.contexts) {
              expect(String(self).length).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
            }
            if (!parsed.ok) {
              expect(parsed.message.startsWith(`${field}: `)).toBe(true);
              return;
            }
            const normalized = normalizeName(value);
            expect(normalized.length).toBeLessThanOrEqual(MAX_NORMALIZED_NAME_LENGTH);
            expect(gramsOfSize(normalized, 3).length).toBeLessThanOrEqual(MAX_NORMALIZED_NAME_LENGTH);
          },
        ),
      );
    } finally {
      normalize.mockRestore();
    }
  });

  it.each(["firstName", "lastName", "companyId", "phone"])(
    "refuses a %s that is not well-formed Unicode, naming it, and accepts any well-formed one",
    (field) => {
      fc.assert(
        fc.property(fc.string({ unit: anyUnit, minLength: 1, maxLength: 40 }), (value) => {
          const parsed = run({ [field]: value });
          if (!survivesUtf8(value)) {
            expect(parsed).toEqual({
              ok: false,
              message: `${field}: must be well-formed Unicode (it holds a lone surrogate)`,
            });
          } else if (field !== "phone" && normalizeName(value).length <= MAX_NORMALIZED_NAME_LENGTH) {
            expect(parsed.ok).toBe(true);
          }
        }),
      );
    },
  );
});
