/** `npm run openapi`: writes the generated OpenAPI document to openapi.json at the repository root. */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../openapi/document.js";
import { cli } from "./args.js";

const OPENAPI_FILE = fileURLToPath(new URL("../../openapi.json", import.meta.url));

const USAGE = `usage: npm run openapi

Writes openapi.json from the Zod schemas and the route table: every route, and the servers of
every stage. (The local server serves its own /openapi.json: its URL, its stage's routes.)`;

cli({ name: "openapi", usage: USAGE, options: {} }, async () => {
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
  console.error(`wrote ${OPENAPI_FILE}`);
});
