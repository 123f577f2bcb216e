/** `npm run openapi`: writes the generated OpenAPI document to openapi.json at the repository root. */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../openapi/document.js";

export const OPENAPI_FILE = fileURLToPath(new URL("../../openapi.json", import.meta.url));

writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.error(`wrote ${OPENAPI_FILE}`);
