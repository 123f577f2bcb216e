import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import {
  FIELD_TABLES_END,
  FIELD_TABLES_START,
  FieldTablesError,
  fieldTables,
  fieldTablesMarkdown,
  withFieldTables,
} from "../../lib/openapi/field-tables.js";
import { ROUTES, type RouteDefinition, routeById } from "../../lib/routes.js";

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, { description });
  return schema;
}

/** A route added to a copy of the table, as a new route is added to lib/routes.ts. */
function routeAnswering(id: string, path: string, response: z.ZodMiniType): RouteDefinition {
  const { pathParameters: _none, ...hello } = routeById("companies-hello");
  return { ...hello, id, path, response };
}

const scopeSchema = z
  .strictObject({
    operations: described(z.array(z.string()), "Operations | the key may use"),
    limits: described(
      z.nullable(
        z.strictObject({
          rate: described(z.number(), "Requests a second"),
          dailyQuota: described(z.nullable(z.int().check(z.minimum(1))), "Requests a UTC day; null: none"),
        }),
      ),
      "The key's throttle; null when unknown",
    ),
  })
  .register(z.globalRegistry, { id: "TestKeyScope" });
const keySchema = z
  .strictObject({
    keyId: described(z.string(), "The key's id"),
    scope: described(scopeSchema.clone(), "What the key may do"),
    status: described(z.enum(["active", "revoked"]), "The key's status"),
  })
  .register(z.globalRegistry, { id: "TestKey" });
const undescribedSchema = z
  .strictObject({
    id: described(z.string(), "An id"),
    nested: described(z.strictObject({ bare: z.string() }), "An object"),
    alsoBare: z.int(),
  })
  .register(z.globalRegistry, { id: "TestUndescribed" });

const guide = readFileSync(new URL("../../docs/partners.md", import.meta.url), "utf8");

describe("the field tables", () => {
  it("are what docs/partners.md holds (run `npm run openapi` after changing a schema or route)", () => {
    expect(withFieldTables(guide, fieldTablesMarkdown())).toBe(guide);
  });

  it("give every route's answer a table, after it every component it refers to", () => {
    const tables = fieldTables();
    const answering = tables.flatMap((table) => table.routes);
    expect(answering.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(["Person", "Employee", "ExternalId", "Pagination", "Greeting"]),
    );
    const employee = tables.find((table) => table.name === "Employee");
    expect(employee?.rows.find((row) => row.field === "personId")).toEqual({
      field: "personId",
      type: "uuid or null",
      meaning: "Linked person; null when identity is unresolved",
    });
    expect(employee?.rows.map((row) => row.field)).toContain("contact.address.postalCode");
  });

  it("give a route added to the table its table, and each new object within it one", () => {
    const table = [...ROUTES, routeAnswering("key-details", "/v1/test-key", keySchema)];
    const tables = fieldTables(table);
    const names = tables.map((one) => one.name);
    expect(names.indexOf("TestKey")).toBeGreaterThan(names.indexOf("Greeting"));
    expect(names.indexOf("TestKeyScope")).toBeGreaterThan(names.indexOf("TestKey"));
    expect(tables.find((one) => one.name === "TestKey")).toEqual({
      name: "TestKey",
      routes: ["GET /v1/test-key"],
      rows: [
        { field: "keyId", type: "string", meaning: "The key's id" },
        { field: "scope", type: "[TestKeyScope](#testkeyscope)", meaning: "What the key may do" },
        { field: "status", type: "`active`, `revoked`", meaning: "The key's status" },
      ],
    });
    expect(tables.find((one) => one.name === "TestKeyScope")?.rows).toEqual([
      { field: "operations", type: "string[]", meaning: "Operations | the key may use" },
      { field: "limits", type: "object or null", meaning: "The key's throttle; null when unknown" },
      { field: "limits.rate", type: "number", meaning: "Requests a second" },
      { field: "limits.dailyQuota", type: "integer ≥ 1 or null", meaning: "Requests a UTC day; null: none" },
    ]);
    const markdown = fieldTablesMarkdown(table);
    expect(markdown).toContain("### TestKey\n\nAnswer of `GET /v1/test-key`.\n\n| Field | Type | Meaning |");
    expect(markdown).toContain("| `operations` | string[] | Operations \\| the key may use |");
  });

  it("are not made while a field has no description, and name every such field", () => {
    const table = [...ROUTES, routeAnswering("undescribed", "/v1/undescribed", undescribedSchema)];
    expect(() => fieldTables(table)).toThrow(FieldTablesError);
    expect(() => fieldTables(table)).toThrow(
      "fields without a description (add one in the schema): TestUndescribed.nested.bare, TestUndescribed.alsoBare",
    );
  });
});

describe("withFieldTables", () => {
  const page = `# Guide\n\nBefore.\n\n${FIELD_TABLES_START}\n\nold\n\n${FIELD_TABLES_END}\n\nAfter.\n`;

  it("replaces what lies between the markers and nothing else", () => {
    expect(withFieldTables(page, "new")).toBe(
      `# Guide\n\nBefore.\n\n${FIELD_TABLES_START}\n\nnew\n\n${FIELD_TABLES_END}\n\nAfter.\n`,
    );
  });

  it.each([
    ["no markers", "# Guide\n"],
    ["the end before the start", `${FIELD_TABLES_END}\n${FIELD_TABLES_START}\n`],
    ["a marker twice", `${page}${FIELD_TABLES_START}\n`],
  ])("refuses a page with %s", (_case, text) => {
    expect(() => withFieldTables(text, "new")).toThrow(FieldTablesError);
  });
});
