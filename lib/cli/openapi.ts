/**
 * `npm run openapi`: writes the generated OpenAPI document to openapi.json at the repository root,
 * and the field tables drawn from it into docs/partners.md, between their markers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../openapi/document.js";
import { fieldTablesMarkdown, withFieldTables } from "../openapi/field-tables.js";
import { cli } from "./args.js";
import { say } from "./terminal-text.js";

const OPENAPI_FILE = fileURLToPath(new URL("../../openapi.json", import.meta.url));
const PARTNER_GUIDE = fileURLToPath(new URL("../../docs/partners.md", import.meta.url));

const USAGE = `usage: npm run openapi

Writes openapi.json from the Zod schemas and the route table: every route, and the servers of
every stage. (The local server serves its own /openapi.json: its URL, its stage's routes.) Then
writes the table of each answer's fields into docs/partners.md, between its fields markers.`;

cli({ name: "openapi", usage: USAGE, options: {} }, async () => {
  // Both made before either is written: a field without a description changes no file.
  const document = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  const guide = withFieldTables(readFileSync(PARTNER_GUIDE, "utf8"), fieldTablesMarkdown());
  writeFileSync(OPENAPI_FILE, document);
  say(`wrote ${OPENAPI_FILE}`);
  writeFileSync(PARTNER_GUIDE, guide);
  say(`wrote the field tables of ${PARTNER_GUIDE}`);
});
