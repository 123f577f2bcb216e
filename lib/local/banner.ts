/**
 * What `npm start` prints once it listens: where it is, its API reference page, and the demo keys
 * when they are in use.
 */
import type { KeyRecord } from "../keys/key-record.js";
import { type RouteDefinition, routesForStage } from "../routes.js";
import type { Stage } from "../stages.js";

export interface BannerOptions {
  url: string;
  stage: Stage;
  /** Which DynamoDB engine serves the tables, and where (for `npm run load` and `npm run keys` with `--endpoint URL`). */
  engine: string;
  records: readonly KeyRecord[];
  directory: { persons: number; employees: number; file: string };
  /** Present only for the demo keys file: key id → plain key. */
  demoKeys?: ReadonlyMap<string, string>;
}

/** A ready-to-run request for a route with a key that may call it. */
function exampleCurl(route: RouteDefinition, url: string, key: string, companyId: string): string {
  const auth = `-H "Authorization: Bearer ${key}"`;
  if (route.method === "GET") return `curl -i ${auth} ${url}${route.path.replace("{companyId}", companyId)}`;
  const body =
    route.id === "employees-search" ? `{"companyId":"${companyId}","limit":2}` : `{"lastName":"a","limit":2}`;
  return `curl -i ${auth} -H "content-type: application/json" -d '${body}' ${url}${route.path}`;
}

function demoKeyLines(records: readonly KeyRecord[], demoKeys: ReadonlyMap<string, string>): string[] {
  const lines = ["demo keys (LOCAL ONLY, never use them anywhere else):"];
  for (const record of records) {
    const key = demoKeys.get(record.keyId);
    if (!key) continue;
    lines.push(
      `  ${record.partner}${record.status === "revoked" ? " [revoked: answers 401]" : ""}`,
      `    key:        ${key}`,
      `    operations: ${record.operations.join(", ") || "(none)"}`,
      `    companies:  ${record.companies.join(", ") || "(none)"}`,
      `    throttle:   ${record.throttle.rateLimit}/s, burst ${record.throttle.burstLimit}`,
    );
  }
  return lines;
}

export function startupBanner(options: BannerOptions): string {
  const { url, stage, engine, records, demoKeys, directory } = options;
  const routes = routesForStage(stage);
  const lines = [
    `listening on ${url}`,
    `API reference: ${url}/docs (the OpenAPI document: ${url}/openapi.json)`,
    `stage: ${stage}`,
    `directory: ${directory.persons} persons, ${directory.employees} employee records from ${directory.file}`,
    `DynamoDB: ${engine}`,
    "",
    "routes ({base_url} and {hello_base_url} are both this server locally):",
    ...routes.map(
      (route) => `  ${route.method.padEnd(4)} ${url}${route.path}${route.draft ? "   (draft)" : ""}`,
    ),
    "",
  ];
  if (!demoKeys) {
    lines.push(`${records.length} key(s) loaded from KEYS_FILE (hashed; plain keys are not kept).`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(...demoKeyLines(records, demoKeys), "", "try:");
  const guide =
    "partner guide (errors, paging, rate limits, the typed client and its examples): docs/partners.md";
  for (const route of routes) {
    // A route without an operation takes any valid key.
    const record = records.find(
      (r) => r.status === "active" && (route.operation === null || r.operations.includes(route.operation)),
    );
    const key = record ? demoKeys.get(record.keyId) : undefined;
    const companyId = record?.companies[0];
    if (key && companyId) lines.push(`  ${exampleCurl(route, url, key, companyId)}`);
  }
  lines.push("", guide);
  return `${lines.join("\n")}\n`;
}
