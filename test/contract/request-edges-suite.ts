/**
 * Hostile requests through the local server, on one engine: each is bounded, answered with a
 * documented status, and leaves no key text in the logs. A burst on one key is throttled, never
 * failed, and another key keeps its answers. Run from one small file per engine: handler modules
 * read their environment once at import, so a jest file serves one.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import type { Engine } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import type { TableId } from "../../lib/store/tables.js";
import { send } from "../support/raw-http.js";

const ALL = ["persons.search", "employees.search", "companies.hello"];
const KEYS = { burst: generateApiKey("test"), other: generateApiKey("live") };
const BURST = 500;
const SEARCH = "/v1/persons/search";

type Start = () => Promise<{ engine: Engine; tableNames: Readonly<Record<TableId, string>> }>;

export function requestEdgesSuite(engineName: string, start: Start): void {
  describe(`hostile requests over HTTP [${engineName}]`, () => {
    let engine: Engine;
    let service: LocalService;
    let port: number;
    const output: string[] = [];
    let restoreStdout = () => {};

    beforeAll(async () => {
      // The access log is checked: the logger must start at INFO, so it is loaded only now.
      process.env.POWERTOOLS_LOG_LEVEL = "INFO";
      const { startLocalService } = await import("../../lib/local/service.js");
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((written: string | Uint8Array) => {
        output.push(String(written));
        return true;
      }) as typeof process.stdout.write;
      restoreStdout = () => {
        process.stdout.write = write;
      };
      const { records } = parseKeysFile(
        JSON.stringify({
          keys: [
            { key: KEYS.burst, partner: "Burst", operations: ALL, companies: ["acme"], tier: "standard" },
            { key: KEYS.other, partner: "Other", operations: ALL, companies: ["acme"], tier: "premium" },
          ],
        }),
        "edge test keys",
      );
      const started = await start();
      engine = started.engine;
      service = await startLocalService({ port: 0, stage: "local", keys: records, ...started });
      port = Number(new URL(service.url).port);
    });

    afterAll(async () => {
      restoreStdout();
      await service?.stop();
      await engine?.stop();
    });

    const post = (body: Buffer | string, authorization: string[] = [`Bearer ${KEYS.other}`]) =>
      send(port, {
        method: "POST",
        path: SEARCH,
        headers: [
          ...authorization.map((value) => ["authorization", value] as const),
          ["content-type", "application/json"],
        ],
        body: typeof body === "string" ? Buffer.from(body, "utf8") : body,
      });
    const refusal = async (response: Promise<{ status: number; body: string }>) => {
      const { status, body } = await response;
      return { status, ...(JSON.parse(body) as { error: string; message?: string }) };
    };

    it.each([
      [
        "an expanding name (340,000 × U+FDFA)",
        JSON.stringify({ firstName: "\uFDFA".repeat(340_000) }),
        "firstName: must be at most 256 characters",
      ],
      [
        "a 5,000-character name",
        JSON.stringify({ lastName: "x".repeat(5_000) }),
        "lastName: must be at most 256 characters",
      ],
      [
        "a name over its NFKC bound",
        JSON.stringify({ lastName: "\uFDFA".repeat(100) }),
        "lastName: must be at most 1024 characters after Unicode NFKC and lower-casing",
      ],
      [
        "a lone surrogate",
        '{"firstName":"a\\ud800"}',
        "firstName: must be well-formed Unicode (it holds a lone surrogate)",
      ],
    ])("refuses %s with 400 naming the field", async (_, body, message) => {
      expect(await refusal(post(body))).toEqual({ status: 400, error: "invalid_input", message });
    });

    it("refuses a body that is not UTF-8, counting the bytes received", async () => {
      const notUtf8 = { status: 400, error: "invalid_input", message: "request body is not valid UTF-8" };
      expect(
        await refusal(post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))),
      ).toEqual(notUtf8);
      // 400 KB of 0xFF would be 1.2 MB once replaced with U+FFFD: it is refused for its bytes, not its size.
      expect(await refusal(post(Buffer.alloc(400_000, 0xff)))).toEqual(notUtf8);
    });

    it("answers 401 to two Authorization headers, whatever their order", async () => {
      for (const order of [
        ["Bearer junk", `Bearer ${KEYS.other}`],
        [`Bearer ${KEYS.other}`, "Bearer junk"],
        [`Bearer ${KEYS.other}`, `Bearer ${KEYS.other}`],
      ]) {
        expect(await refusal(post("{}", order))).toEqual({ status: 401, error: "invalid_api_key" });
      }
      expect((await post("{}")).status).toBe(200);
    });

    it("logs no key text sent as a company id, whatever its prefix", async () => {
      const rest = generateApiKey("test").slice("pd_test_".length);
      for (const disguised of [`PD_TEST_${rest}`, `pd-test-${rest}`, rest, `x${rest}`]) {
        expect((await post(JSON.stringify({ companyId: disguised }))).status).toBe(403);
      }
      expect(output.join("")).toContain("request forbidden");
      for (let at = 0; at + 8 <= rest.length; at += 4)
        expect(output.join("")).not.toContain(rest.slice(at, at + 8));
    });

    it(`throttles a burst of ${BURST} on one key, never fails it, and another key keeps answering`, async () => {
      const hello = (key: string) =>
        fetch(`${service.url}/v1/companies/acme/hello`, { headers: { authorization: `Bearer ${key}` } });
      const logged = output.length;
      const burst = Array.from({ length: BURST }, () => hello(KEYS.burst));
      const others = Array.from({ length: 5 }, () => hello(KEYS.other));
      const answers = await Promise.all(burst);
      const statuses = answers.map((answer) => answer.status);
      expect(new Set(statuses)).toEqual(new Set([200, 429]));
      for (const answer of answers.filter((a) => a.status === 429))
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await Promise.all(others)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      // Nothing failed, so the access log holds no 500; had one happened, it would say why.
      const lines = output
        .slice(logged)
        .join("")
        .split("\n")
        .filter((line) => line.includes('"api access"'));
      expect(lines.length).toBeGreaterThanOrEqual(BURST);
      expect(lines.filter((line) => line.includes('"status":500'))).toEqual([]);
      // The cause of the 500s a burst once got: every request ran the authorizer's key read. Like API
      // Gateway, the local gateway keeps the authorizer's answer per token for a second.
      const accepted = output
        .slice(logged)
        .join("")
        .split("\n")
        .filter((line) => line.includes('"key accepted"'));
      expect(accepted.length).toBeLessThan(BURST / 10);
    });
  });
}
