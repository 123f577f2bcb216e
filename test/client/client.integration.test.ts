/**
 * The client against the local service, as a partner uses it: the demo keys and data of
 * `npm start`, every route, paging, each error once, and the two examples run as commands.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { parse } from "zod/mini";
import { PartnerDirectoryClient, PartnerDirectoryError } from "../../lib/client/index.js";
import {
  ApiEmployeesSearchResponseSchema,
  ApiPersonsSearchResponseSchema,
} from "../../lib/directory/api-schema.js";
import { keyDescriptionSchema } from "../../lib/keys/describe-key.js";
import type { LocalService } from "../../lib/local/service.js";
import { demoData as data, demoKey, demoKeys as keys } from "../support/demo-directory.js";

const run = promisify(execFile);

const ALL_ACCESS = demoKey("Demo Partner");
const TWO_COMPANIES = demoKey("Acme Integrator");
const GREETING_ONLY = demoKey("Greeting Only");
const SLOW = demoKey("Slow Lane");
const REVOKED = demoKey("Revoked");

let service: LocalService;
const client = (apiKey: string, retry = { maxAttempts: 1 }) =>
  new PartnerDirectoryClient({ baseUrl: service.url, apiKey, retry });

beforeAll(async () => {
  const { startLocalService } = await import("../../lib/local/service.js");
  service = await startLocalService({ port: 0, stage: "local", keys: keys.records, data });
});

afterAll(async () => {
  await service?.stop();
});

describe("the client against the local service", () => {
  it("greets a company the key may read", async () => {
    expect(await client(GREETING_ONLY).hello("acme-home-care")).toEqual({
      message: expect.stringMatching(/\S/),
    });
  });

  it("tells a key what it may do: its own id, partner, operations, companies and throttle", async () => {
    const record = keys.records.find((candidate) => candidate.partner.startsWith("Acme Integrator"));
    const answer = await client(TWO_COMPANIES).key();
    parse(keyDescriptionSchema, answer);
    expect(answer).toEqual({
      keyId: record?.keyId,
      partner: record?.partner,
      operations: [...(record?.operations ?? [])].sort(),
      companies: ["acme-home-care", "bluebird-health"],
      tier: "standard",
      throttle: { rate: 10, burst: 20, quota: null },
    });
    expect((await client(SLOW).key()).throttle).toEqual({ rate: 1, burst: 2, quota: null });
  });

  it("answers searches that match the published schemas", async () => {
    const persons = await client(ALL_ACCESS).searchPersons({ lastName: "a", limit: 3 });
    parse(ApiPersonsSearchResponseSchema, persons);
    expect(persons.persons).toHaveLength(3);
    const employees = await client(ALL_ACCESS).searchEmployees({ companyId: "acme-home-care", limit: 3 });
    parse(ApiEmployeesSearchResponseSchema, employees);
    expect(employees.employees.every((employee) => employee.companyId === "acme-home-care")).toBe(true);
  });

  it("pages through every person and every employee record, each once, in order", async () => {
    const partner = client(TWO_COMPANIES);
    const persons = [];
    for await (const person of partner.allPersons({ limit: 7 })) persons.push(person);
    const { pagination } = await partner.searchPersons({ limit: 1 });
    expect(persons).toHaveLength(pagination.total);
    expect(new Set(persons.map((person) => person.id)).size).toBe(persons.length);
    const employees = [];
    for await (const employee of partner.allEmployees({ companyId: "bluebird-health", limit: 100 }))
      employees.push(employee);
    const expected = data.employees.filter((record) => record.companyId === "bluebird-health").length;
    expect(employees).toHaveLength(expected);
    const order = employees.map(
      (employee) => `${Date.parse(employee.createdAt)}`.padStart(16, "0") + employee.id,
    );
    expect(order).toEqual([...order].sort());
  });

  it("hits each error once, with its status, code and request id", async () => {
    // Each call starts when it is awaited: a refusal that came before its handler was attached
    // would be an unhandled rejection, failing the test whichever answer was right.
    const cases: [() => Promise<unknown>, number, string][] = [
      [
        () => client(ALL_ACCESS).searchEmployees({ companyId: "acme-home-care", limit: 101 }),
        400,
        "invalid_input",
      ],
      [() => client(ALL_ACCESS).hello("bad id!"), 400, "invalid_company_id"],
      [() => client(REVOKED).hello("acme-home-care"), 401, "invalid_api_key"],
      [() => client(REVOKED).key(), 401, "invalid_api_key"],
      [() => client(GREETING_ONLY).searchPersons(), 403, "forbidden"],
      [() => client(TWO_COMPANIES).searchEmployees({ companyId: "dayspring-nursing" }), 403, "forbidden"],
    ];
    for (const [call, status, code] of cases) {
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(PartnerDirectoryError);
      expect(error).toMatchObject({
        status,
        error: code,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
    const invalid = await client(ALL_ACCESS)
      .searchEmployees({ companyId: "acme-home-care", limit: 101 })
      .then(
        () => undefined,
        (thrown: unknown) => thrown as PartnerDirectoryError,
      );
    expect(invalid?.message).toMatch(/limit/);
  });

  it("gets 429 with Retry-After when the key's rate is spent, and its retries ride it out", async () => {
    const impatient = client(SLOW);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => impatient.hello("acme-home-care")),
    );
    const limited = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({
      status: 429,
      error: "rate_limited",
      retryAfterSeconds: expect.any(Number),
    });

    const retries: number[] = [];
    const patient = new PartnerDirectoryClient({
      baseUrl: service.url,
      apiKey: SLOW,
      retry: { maxAttempts: 6, baseDelayMs: 50 },
      onRetry: ({ delayMs }) => retries.push(delayMs),
    });
    await expect(patient.hello("acme-home-care")).resolves.toEqual({ message: expect.any(String) });
    expect(retries.every((delay) => delay >= 1000)).toBe(true);
  });
});

describe("the examples, run as a partner runs them", () => {
  const tsx = new URL("../../node_modules/.bin/tsx", import.meta.url).pathname;
  const example = (name: string) => new URL(`../../lib/client/examples/${name}`, import.meta.url).pathname;
  const env = (apiKey: string) => ({
    ...process.env,
    BASE_URL: service.url,
    PARTNER_API_KEY: apiKey,
    COMPANY_ID: "acme-home-care",
  });

  it("page-all-persons prints every person of the company once", async () => {
    const { stdout } = await run(tsx, [example("page-all-persons.ts")], { env: env(ALL_ACCESS) });
    const lines = stdout.trim().split("\n");
    const expected = new Set(
      data.employees
        .filter((record) => record.companyId === "acme-home-care" && record.personId)
        .map((record) => record.personId),
    );
    expect(lines.at(-1)).toBe(`${expected.size} person(s) in acme-home-care`);
    expect(new Set(lines.slice(0, -1).map((line) => line.split("\t")[0]))).toEqual(expected);
  });

  it("handle-429 rides out the throttle, then reports when to come back", async () => {
    const { stdout } = await run(tsx, [example("handle-429.ts")], { env: { ...env(SLOW), REQUESTS: "4" } });
    expect(stdout).toMatch(/retrying in \d+ ms/);
    expect(stdout).toContain("patient client: 4 of 4 requests answered");
    expect(stdout).toMatch(/rate limited \(request [0-9a-f-]{36}\); come back in \d+ s/);
    expect(stdout).toMatch(/impatient client: \d answered, [1-4] rate limited/);
  });
});
