/**
 * Word lists for the demo data. Names deliberately include what name matching must cope with:
 * accents (é, ü, ß), ligatures as PDF copy-paste leaves them (`ﬁ`, `ﬀ`, `ﬃ`) and full-width
 * letters, all of which NFKC folds. Common surnames come first: they are picked most often, so
 * several people share them.
 */

/** Realistic company slugs; past the end of this list ids are `company-NNN`. */
export const COMPANY_SLUGS = [
  "acme-home-care",
  "bluebird-health",
  "cedar-grove-caregivers",
  "dayspring-nursing",
  "evergreen-home-health",
  "fairview-senior-living",
  "golden-hour-care",
  "harborlight-hospice",
] as const;

export const FIRST_NAMES = [
  "Maria",
  "James",
  "Aisha",
  "José",
  "Zoë",
  "Renée",
  "Jürgen",
  "Björn",
  "Siân",
  "Chloé",
  "Dmitri",
  "Mei",
  "Ngozi",
  "Priya",
  "Santiago",
  "Fatima",
  "Linh",
  "Hannah",
  "Carlos",
  "Grace",
  "Ahmed",
  "Soﬁa",
  "Noah",
  "Émile",
  "Ｓａｒａ",
  "Joaquín",
  "Ingrid",
  "Thảo",
  "Kwame",
  "Łucja",
] as const;

export const LAST_NAMES = [
  "Smith",
  "Garcia",
  "Nguyen",
  "Johnson",
  "Patel",
  "Müller",
  "Williams",
  "Hernández",
  "Kim",
  "Brown",
  "Weiß",
  "Pérez",
  "Okafor",
  "Griﬃn",
  "O'Brien",
  "Lefèvre",
  "Strauß",
  "Kowalski",
  "Ｔａｎａｋａ",
  "Duﬀy",
  "Haddad",
  "Svensson",
  "Nguyễn",
  "Groß",
  "Núñez",
] as const;

export const GENDERS = ["female", "male", "nonbinary"] as const;

export const STREETS = [
  "Maple St",
  "Oak Ave",
  "Cedar Ln",
  "Elm St",
  "Pine Rd",
  "Lakeview Dr",
  "Main St",
  "Washington Blvd",
  "Sunset Blvd",
  "Park Pl",
] as const;

/** City, state, ZIP. */
export const PLACES = [
  ["New York", "NY", "10001"],
  ["Miami", "FL", "33101"],
  ["Chicago", "IL", "60601"],
  ["San Francisco", "CA", "94103"],
  ["Portland", "OR", "97201"],
  ["Boston", "MA", "02108"],
  ["Las Vegas", "NV", "89101"],
  ["Houston", "TX", "77002"],
  ["Honolulu", "HI", "96813"],
  ["Seattle", "WA", "98101"],
  ["Atlanta", "GA", "30303"],
  ["Austin", "TX", "78701"],
] as const;

export const AREA_CODES = [
  "212",
  "305",
  "312",
  "415",
  "503",
  "617",
  "702",
  "713",
  "808",
  "917",
  "206",
  "404",
] as const;

export const EMAIL_DOMAINS = ["example.com", "example.org", "example.net"] as const;

export const PROGRAMS = ["medical", "dental", "vision"] as const;

export const PLAN_TIERS = ["employee_only", "employee_spouse", "employee_children", "family"] as const;

/**
 * Bulk-import instants: many records share one of these `createdAt` values, so the `id`
 * tie-break of the sort order is exercised.
 */
export const IMPORT_BATCHES = [
  "2022-03-01T08:00:00Z",
  "2023-01-15T08:00:00Z",
  "2024-06-03T12:30:00Z",
  "2025-02-10T06:00:00Z",
] as const;
