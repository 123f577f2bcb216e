/** What `npm start` prints once it listens: where it is, and the demo keys when they are in use. */
import type { KeyRecord } from "../keys/key-record.js";
import { routesForStage } from "../routes.js";
import type { Stage } from "../stages.js";

export function startupBanner(options: {
  url: string;
  stage: Stage;
  records: readonly KeyRecord[];
  directory: { persons: number; employees: number; file: string };
  /** Present only for the demo keys file: key id → plain key. */
  demoKeys?: ReadonlyMap<string, string>;
}): string {
  const { url, stage, records, demoKeys } = options;
  const lines = [
    `listening on ${url}`,
    `stage: ${stage}`,
    "",
    "routes ({base_url} and {hello_base_url} are both this server locally):",
  ];
  for (const route of routesForStage(stage)) {
    lines.push(`  ${route.method.padEnd(4)} ${url}${route.path}${route.draft ? "   (draft)" : ""}`);
  }
  lines.push("");
  if (!demoKeys) {
    lines.push(`${records.length} key(s) loaded from KEYS_FILE (hashed; plain keys are not kept).`);
    return lines.join("\n");
  }
  lines.push("demo keys (LOCAL ONLY, never use them anywhere else):");
  for (const record of records) {
    const key = demoKeys.get(record.keyId);
    if (!key) continue;
    lines.push(
      `  ${record.partner}${record.status === "revoked" ? " [revoked]" : ""}`,
      `    key:        ${key}`,
      `    operations: ${record.operations.join(", ") || "(none)"}`,
      `    companies:  ${record.companies.join(", ") || "(none)"}`,
      `    throttle:   ${record.throttle.rateLimit}/s, burst ${record.throttle.burstLimit}`,
    );
  }
  const first = records.find(
    (record) => record.status === "active" && record.operations.includes("companies.hello"),
  );
  const company = first?.companies[0];
  const key = first ? demoKeys.get(first.keyId) : undefined;
  if (company && key) {
    lines.push(
      "",
      "try:",
      `  curl -i -H "Authorization: Bearer ${key}" ${url}/v1/companies/${company}/hello`,
    );
  }
  return lines.join("\n");
}
