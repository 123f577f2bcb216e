/**
 * Both search routes over HTTP, as a partner calls them, on one engine. Run from one small file
 * per engine: handler modules read their environment once at import, so a jest file serves one.
 */
import { randomUUID } from "node:crypto";
import {
  ApiEmployeesSearchResponseSchema,
  ApiPersonsSearchResponseSchema,
} from "../../lib/directory/api-schema.js";
import { parseDataFile } from "../../lib/directory/source.js";
import { generateApiKey } from "../../lib/keys/api-key.js";
import type { Engine } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import type { TableId } from "../../lib/store/tables.js";
import { expectContractResponse } from "../support/contract.js";

const ADDRESS = { line1: null, line2: null, city: null, state: null, postalCode: null };
const uuid = () => randomUUID();
const P1 = uuid();
const P2 = uuid();
const BIG = uuid();
const MID = uuid();

function employee(
  companyId: string,
  personId: string | null,
  createdAt: string,
  line1: string | null = null,
) {
  return {
    id: uuid(),
    companyId,
    personId,
    externalIds: [
      { system: "payroll_system", system_id: "p-1" },
      { system: "hhaexchange", system_id: "h-1" },
    ],
    demographics: { firstName: "Zoë", lastName: "García", dateOfBirth: "1990-05-01", gender: null },
    contact: { email: null, phone: "(555) 123-4567", address: { ...ADDRESS, line1 } },
    membership: { state: "active", userState: "active", invitation: null },
    participation: { decision: "opt_in", decidedAt: "2024-02-01T00:00:00Z" },
    coverages: [{ status: "enrolled", startsAt: "2024-01-01", endsAt: null, planTier: "gold" }],
    createdAt,
    updatedAt: createdAt,
  };
}

/**
 * A person whose every employment carries a long address line: `count` of them is `count` × ~29 KB.
 * What the tests need is bytes, not records (a load's cost grows with its records): ten times
 * fewer employments ten times larger make the same page sizes.
 */
const bulky = (personId: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    employee("big", personId, new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(), "x".repeat(28_000)),
  );

const PERSONS = [P1, P2, BIG, MID].map((id, i) => ({
  id,
  createdAt: `2023-0${i + 1}-01T00:00:00Z`,
  updatedAt: "2024-01-01T00:00:00Z",
}));
const SMALL_EMPLOYEES = [
  employee("acme", P1, "2024-01-01T00:00:00Z"),
  employee("beta", P1, "2024-01-02T00:00:00Z"),
  employee("acme", P2, "2024-01-03T00:00:00Z"),
  employee("acme", null, "2024-01-04T00:00:00Z"),
];

/** Companies acme and beta only: a few small records, for suites that need no large person. */
export const SMALL_DATA = parseDataFile(
  JSON.stringify({ persons: PERSONS.slice(0, 2), employees: SMALL_EMPLOYEES }),
);

/** SMALL_DATA, and company big: a person of about 7 MB of employments (BIG), one of about 3.5 MB (MID). */
const DATA = parseDataFile(
  JSON.stringify({
    persons: PERSONS,
    employees: [...SMALL_EMPLOYEES, ...bulky(BIG, 240), ...bulky(MID, 120)],
  }),
);

const KEYS = {
  full: generateApiKey("test"),
  acmeOnly: generateApiKey("test"),
  helloOnly: generateApiKey("test"),
  bigReader: generateApiKey("test"),
};
const KEY_RECORDS = parseKeysFile(
  JSON.stringify({
    keys: [
      {
        key: KEYS.full,
        partner: "Full",
        operations: ["persons.search", "employees.search"],
        companies: ["acme", "beta"],
        throttle: { rateLimit: 1000, burstLimit: 1000 },
      },
      {
        key: KEYS.acmeOnly,
        partner: "Acme",
        operations: ["persons.search", "employees.search"],
        companies: ["acme"],
      },
      { key: KEYS.helloOnly, partner: "Hello", operations: ["companies.hello"], companies: ["acme"] },
      // Only this key reads the company of the persons with hundreds of large employments.
      { key: KEYS.bigReader, partner: "Big", operations: ["persons.search"], companies: ["big"] },
    ],
  }),
  "search route keys",
).records;

export interface SuiteEngine {
  engine: Engine;
  tableNames: Record<TableId, string>;
}

export function searchRoutesSuite(name: string, start: () => Promise<SuiteEngine | undefined>): void {
  let service: LocalService | undefined;
  let stopEngine: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const started = await start();
    if (!started) return;
    const { startLocalService } = await import("../../lib/local/service.js");
    service = await startLocalService({ port: 0, stage: "local", keys: KEY_RECORDS, data: DATA, ...started });
    stopEngine = () => started.engine.stop();
  });

  afterAll(async () => {
    await service?.stop();
    await stopEngine?.();
  });

  const post = async (
    route: "persons" | "employees",
    body: string | undefined,
    key: string = KEYS.full,
    contentType = "application/json",
  ) => {
    if (!service) throw new Error("service not started");
    const response = await fetch(`${service.url}/v1/${route}/search`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": contentType }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    expectContractResponse({
      method: "POST",
      path: `/v1/${route}/search`,
      status: response.status,
      headers: response.headers,
      body: text,
    });
    return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };

  describe(`search routes over HTTP [${name}]`, () => {
    it("persons search with no body returns everyone the key may read, in the contract's shape", async () => {
      const response = await post("persons", undefined);
      expect(response.status).toBe(200);
      const body = ApiPersonsSearchResponseSchema.parse(response.json());
      expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
      expect(body.persons.map((p) => p.id)).toEqual([P1, P2]);
      expect(body.persons[0]?.employments.map((e) => e.companyId)).toEqual(["acme", "beta"]);
    });

    it("employees search returns a company's records, unlinked ones included, in the contract's shape", async () => {
      const response = await post(
        "employees",
        JSON.stringify({ companyId: "acme", externalIdSystems: ["hhaexchange"] }),
      );
      expect(response.status).toBe(200);
      const body = ApiEmployeesSearchResponseSchema.parse(response.json());
      expect(body.pagination.total).toBe(3);
      expect(body.employees.map((e) => e.personId)).toEqual([P1, P2, null]);
      expect(body.employees.every((e) => e.externalIds.every((id) => id.system === "hhaexchange"))).toBe(
        true,
      );
    });

    it("never shows an employment of a company the key may not read", async () => {
      const body = ApiPersonsSearchResponseSchema.parse((await post("persons", "{}", KEYS.acmeOnly)).json());
      expect(body.pagination.total).toBe(2);
      expect(body.persons.flatMap((p) => p.employments.map((e) => e.companyId))).toEqual(["acme", "acme"]);
    });

    it("refuses 1 MB of one external ID system as one short invalid_input", async () => {
      const systems = JSON.stringify(Array(60_000).fill("hhaexchange"));
      const response = await post("employees", `{"companyId":"acme","externalIdSystems":${systems}}`);
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({
        error: "invalid_input",
        message: 'externalIdSystems: must name each system at most once ("hhaexchange" is repeated)',
      });
    });

    it.each([
      ["persons", '{"compnyId":"acme"}', 'unknown field "compnyId"'],
      ["persons", '{"firstName":""}', "firstName: must be at least 1 character"],
      ["persons", '{"phone":"555-1234"}', "phone: must have exactly 10 digits"],
      ["persons", '{"externalIdSystems":["ssn"]}', 'externalIdSystems[0]: unsupported value "ssn"'],
      ["persons", '{"externalIdSystems":["hhaexchange","hhaexchange"]}', "each system at most once"],
      ["persons", '{"limit":101}', "limit: must be at most 100"],
      ["persons", '{"limit":1e400}', "limit: must be a finite number"],
      ["persons", '{"limit":0}', "limit: must be at least 1"],
      ["persons", '{"offset":-1}', "offset: must be at least 0"],
      ["persons", '{"createdFrom":"2024-01-01"}', "createdFrom: must be a valid date-time"],
      ["persons", "{", "request body is not valid JSON"],
      ["employees", "{}", "companyId: required"],
      ["employees", '{"companyId":7}', "companyId: expected string, received number"],
    ] as const)(
      "%s search refuses %s with invalid_input naming the problem",
      async (route, body, message) => {
        const response = await post(route, body);
        expect(response.status).toBe(400);
        const json = response.json();
        expect(Object.keys(json).sort()).toEqual(["error", "message"]);
        expect(json.error).toBe("invalid_input");
        expect(String(json.message)).toContain(message);
      },
    );

    it("refuses a wrong content type", async () => {
      const response = await post("persons", "{}", KEYS.full, "text/plain");
      expect(response.status).toBe(400);
    });

    it.each([
      ["persons", '{"companyId":"beta"}', KEYS.acmeOnly],
      ["employees", '{"companyId":"beta"}', KEYS.acmeOnly],
      ["employees", '{"companyId":"no-such-company"}', KEYS.acmeOnly],
      ["persons", "{}", KEYS.helloOnly],
    ] as const)("%s search answers %s with 403 forbidden", async (route, body, key) => {
      const response = await post(route, body, key);
      expect(response.status).toBe(403);
      expect(response.text).toBe('{"error":"forbidden"}');
    });

    it("returns a person with 120 large employments (about 3.5 MB) whole", async () => {
      const response = await post("persons", JSON.stringify({ personId: MID }), KEYS.bigReader);
      expect(response.status).toBe(200);
      const body = ApiPersonsSearchResponseSchema.parse(response.json());
      expect(body.persons[0]?.employments).toHaveLength(120);
    });

    it("answers 500 rather than truncate a page over Lambda's 6 MB limit", async () => {
      const response = await post("persons", JSON.stringify({ personId: BIG }), KEYS.bigReader);
      expect(response.status).toBe(500);
      expect(response.text).toBe('{"error":"internal_error"}');
    });
  });
}
