/**
 * What `npm start` greets a new user with: every demo key with what it may do, and a `curl` per
 * route that works as printed (run here against the demo service, the way a user pastes it).
 */
import { readFileSync } from "node:fs";
import { parseDataFile } from "../../lib/directory/source.js";
import { startupBanner } from "../../lib/local/banner.js";
import { DEMO_DATA_FILE, DEMO_KEYS_FILE } from "../../lib/local/config.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import { routesForStage } from "../../lib/routes.js";

const keys = parseKeysFile(readFileSync(DEMO_KEYS_FILE, "utf8"), "demo keys");
const data = parseDataFile(readFileSync(DEMO_DATA_FILE, "utf8"));
let service: LocalService;
let banner: string;

beforeAll(async () => {
  const { startLocalService } = await import("../../lib/local/service.js");
  service = await startLocalService({ port: 0, stage: "local", keys: keys.records, data });
  banner = startupBanner({
    url: service.url,
    stage: "local",
    engine: "dynalite",
    records: keys.records,
    directory: { persons: data.persons.length, employees: data.employees.length, file: DEMO_DATA_FILE },
    demoKeys: keys.plainKeys,
  });
});

afterAll(async () => {
  await service?.stop();
});

/** The parts of a printed `curl -i -H … [-d '…'] URL` line. */
function parseCurl(line: string): { headers: Record<string, string>; body?: string; url: string } {
  const headers = Object.fromEntries(
    [...line.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((match) => [match[1]?.toLowerCase(), match[2]]),
  );
  const body = /-d '([^']*)'/.exec(line)?.[1];
  const url = line.trim().split(" ").at(-1) ?? "";
  return { headers, ...(body === undefined ? {} : { body }), url };
}

describe("the npm start banner with the demo keys", () => {
  it("lists every demo key with its operations, companies and throttle", () => {
    for (const record of keys.records) {
      expect(banner).toContain(record.partner);
      expect(banner).toContain(`key:        ${keys.plainKeys.get(record.keyId)}`);
      expect(banner).toContain(`operations: ${record.operations.join(", ")}`);
    }
    expect(banner).toMatch(/Revoked Partner \[revoked: answers 401\]/);
    expect(banner).toContain("throttle:   1/s, burst 2");
  });

  it("prints a curl per route that answers 200 as pasted", async () => {
    const curls = banner.split("\n").filter((line) => line.trim().startsWith("curl "));
    expect(curls).toHaveLength(routesForStage("local").length);
    for (const route of routesForStage("local")) {
      const pattern = new RegExp(route.path.replace("{companyId}", "[^/]+").replaceAll("/", "\\/"));
      const line = curls.find((candidate) => pattern.test(candidate));
      expect({ route: route.id, printed: line !== undefined }).toEqual({ route: route.id, printed: true });
      const { headers, body, url } = parseCurl(line ?? "");
      const response = await fetch(url, {
        method: body === undefined ? "GET" : "POST",
        headers,
        ...(body ? { body } : {}),
      });
      expect({ route: route.id, status: response.status }).toEqual({ route: route.id, status: 200 });
    }
  });

  it("points to the partner guide", () => {
    expect(banner).toContain("docs/partners.md");
  });
});
