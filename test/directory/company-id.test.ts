import { COMPANY_ID_PATTERN, isCompanyId } from "../../lib/directory/company-id.js";

describe("company id", () => {
  it.each(["acme-home-care", "company-001", "A", "a.b_c-D9", "x".repeat(128)])("accepts %j", (id) => {
    expect(isCompanyId(id)).toBe(true);
    expect(COMPANY_ID_PATTERN.test(id)).toBe(true);
  });

  it.each(["", "x".repeat(129), "acme home", "acme/care", "café", "acme\n", "ａｃｍｅ", "acme!", "a:b"])(
    "refuses %j",
    (id) => {
      expect(isCompanyId(id)).toBe(false);
    },
  );
});
