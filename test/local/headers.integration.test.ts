/**
 * The headers of every answer of the local server, over HTTP: `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` on all of them (the functions', the gateway's own, and Node's
 * refusals), `WWW-Authenticate: Bearer` on 401, `Allow` on 405; and the answer to each method no
 * route serves, CONNECT included. Requests no HTTP client would send are written to the socket as bytes.
 */
import { generateApiKey } from "../../lib/keys/api-key.js";
import { type Engine, startDynalite } from "../../lib/local/engines.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import type { LocalService } from "../../lib/local/service.js";
import { expectStandardHeaders } from "../support/contract.js";
import { exchange, type SocketResponse } from "../support/raw-http.js";

const ALL = ["persons.search", "employees.search", "companies.hello"];
const FAST = { rateLimit: 10_000, burstLimit: 10_000 };
const KEYS = {
  full: generateApiKey("test"),
  helloOnly: generateApiKey("test"),
  slow: generateApiKey("live"),
};
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [
      { key: KEYS.full, partner: "Full", operations: ALL, companies: ["acme"], throttle: FAST },
      {
        key: KEYS.helloOnly,
        partner: "Hello",
        operations: ["companies.hello"],
        companies: ["acme"],
        throttle: FAST,
      },
      {
        key: KEYS.slow,
        partner: "Slow",
        operations: ALL,
        companies: ["acme"],
        throttle: { rateLimit: 1, burstLimit: 1 },
      },
    ],
  }),
  "header test keys",
);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let engine: Engine;
let service: LocalService;
let port: number;
const output: string[] = [];
let restoreStdout: () => void;

beforeAll(async () => {
  // The refusals' log lines are checked: the logger must start at INFO, so it is loaded only now.
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
  engine = await startDynalite();
  // A clock that never moves: the slow key's one token is spent for good, so its 429 is certain.
  service = await startLocalService({ port: 0, stage: "local", keys: records, engine, now: () => 0 });
  port = Number(new URL(service.url).port);
});

afterAll(async () => {
  restoreStdout();
  await service.stop();
  await engine.stop();
});

async function call(
  method: string,
  path: string,
  init: { key?: string; authorization?: string; body?: string } = {},
) {
  const headers = new Headers({ "content-type": "application/json" });
  const authorization = init.authorization ?? (init.key ? `Bearer ${init.key}` : undefined);
  if (authorization) headers.set("authorization", authorization);
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

const HELLO = "/v1/companies/acme/hello";

describe("every answer over HTTP", () => {
  it.each([
    ["the greeting", "GET", HELLO, 200, { key: KEYS.full }],
    ["persons search", "POST", "/v1/persons/search", 200, { key: KEYS.full, body: "{}" }],
    [
      "employees search",
      "POST",
      "/v1/employees/search",
      200,
      { key: KEYS.full, body: '{"companyId":"acme"}' },
    ],
    ["the OpenAPI document", "GET", "/openapi.json", 200, {}],
    ["a malformed company id", "GET", "/v1/companies/a%20b/hello", 400, { key: KEYS.full }],
    ["an invalid body", "POST", "/v1/persons/search", 400, { key: KEYS.full, body: '{"limit":0}' }],
    ["no key", "GET", HELLO, 401, {}],
    ["an unknown key", "GET", HELLO, 401, { key: generateApiKey("live") }],
    ["another scheme", "GET", HELLO, 401, { authorization: `Basic ${KEYS.full}` }],
    ["an operation the key lacks", "POST", "/v1/persons/search", 403, { key: KEYS.helloOnly, body: "{}" }],
    ["a company the key may not read", "GET", "/v1/companies/beta/hello", 403, { key: KEYS.full }],
    ["no such route", "GET", "/v1/nothing", 404, { key: KEYS.full }],
    ["the greeting's path, POST", "POST", HELLO, 405, { key: KEYS.full }],
    ["a search path, GET", "GET", "/v1/persons/search", 405, { key: KEYS.full }],
    ["the OpenAPI document, DELETE", "DELETE", "/openapi.json", 405, {}],
  ] as const)(
    "%s (%s %s) answers %i: no-store, nosniff and the status's own headers",
    async (_, method, path, status, init: { key?: string; authorization?: string; body?: string }) => {
      const response = await call(method, path, init);
      expect(response.status).toBe(status);
      expectStandardHeaders(status, response.headers);
    },
  );

  it("429 too, with Retry-After", async () => {
    expect((await call("GET", HELLO, { key: KEYS.slow })).status).toBe(200);
    const limited = await call("GET", HELLO, { key: KEYS.slow });
    expect(limited.status).toBe(429);
    expectStandardHeaders(429, limited.headers);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("401 names the Bearer scheme", async () => {
    expect((await call("GET", HELLO)).headers.get("www-authenticate")).toBe("Bearer");
  });

  it("405 names exactly the methods the path serves", async () => {
    expect((await call("PUT", HELLO)).headers.get("allow")).toBe("GET");
    expect((await call("GET", "/v1/employees/search")).headers.get("allow")).toBe("POST");
    expect((await call("POST", "/openapi.json")).headers.get("allow")).toBe("GET, HEAD");
  });
});

const HOST = "Host: 127.0.0.1\r\n";

function expectRefusal(response: SocketResponse | undefined, status: number, message: RegExp): void {
  expect(response?.status).toBe(status);
  if (!response) return;
  expect(JSON.parse(response.body)).toEqual({
    error: "invalid_input",
    message: expect.stringMatching(message),
  });
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("x-request-id")).toMatch(UUID);
  expectStandardHeaders(status, response.headers);
}

/** The access log's lines ("api access") written since the output was last cleared. */
function accessLines(): Record<string, unknown>[] {
  return output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === "api access");
}

describe("methods no route serves, CONNECT included", () => {
  function expectError(response: SocketResponse | undefined, status: number, error: string): void {
    expect(response?.status).toBe(status);
    if (!response) return;
    expect(JSON.parse(response.body)).toEqual({ error });
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    expectStandardHeaders(status, response.headers);
  }

  it.each([
    ["an authority, as a tunnel asks", "example.com:443", 404, "not_found", null],
    ["a search path", "/v1/persons/search", 405, "method_not_allowed", "POST"],
    ["the greeting's path", HELLO, 405, "method_not_allowed", "GET"],
  ])(
    "CONNECT to %s (%s): %i %s, logged, then the connection closes",
    async (_, target, status, error, allow) => {
      output.length = 0;
      const host = target.startsWith("/") ? HOST : `Host: ${target}\r\n`;
      const responses = await exchange(port, [
        `CONNECT ${target} HTTP/1.1\r\n${host}Authorization: Bearer ${KEYS.full}\r\n\r\ntunnelled bytes`,
      ]);
      expect(responses).toHaveLength(1);
      expectError(responses[0], status, error);
      expect(responses[0]?.headers.get("connection")).toBe("close");
      expect(responses[0]?.headers.get("allow")).toBe(allow);
      expect(accessLines()).toEqual([
        expect.objectContaining({
          requestId: responses[0]?.headers.get("x-request-id"),
          httpMethod: "CONNECT",
          status,
        }),
      ]);
    },
  );

  it("CONNECT over HTTP/1.1 without Host: 400, as any request", async () => {
    const [response] = await exchange(port, ["CONNECT example.com:443 HTTP/1.1\r\n\r\n"]);
    expectRefusal(response, 400, /Host header/);
  });

  it.each(["TRACE", "OPTIONS", "PATCH", "PUT", "DELETE", "PROPFIND", "QUERY", "M-SEARCH"])(
    "%s: 405 with Allow on a route's path, 404 elsewhere, each logged",
    async (method) => {
      output.length = 0;
      const [onRoute, elsewhere] = await exchange(port, [
        `${method} ${HELLO} HTTP/1.1\r\n${HOST}Authorization: Bearer ${KEYS.full}\r\n\r\n`,
        `${method} /v1/nothing HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`,
      ]);
      expectError(onRoute, 405, "method_not_allowed");
      expect(onRoute?.headers.get("allow")).toBe("GET");
      expectError(elsewhere, 404, "not_found");
      expect(accessLines().map((line) => [line.httpMethod, line.status])).toEqual([
        [method, 405],
        [method, 404],
      ]);
    },
  );

  it("a method Node's parser does not know: 400, as any malformed request line", async () => {
    const [response] = await exchange(port, [`BREW ${HELLO} HTTP/1.1\r\n${HOST}\r\n`]);
    expectRefusal(response, 400, /^malformed HTTP request$/);
  });
});

describe("what Node refuses before the gateway", () => {
  it.each([
    ["a request path over 16 KiB", `GET /v1/companies/${"c".repeat(20_000)}/hello HTTP/1.1\r\n${HOST}\r\n`],
    ["a header over 16 KiB", `GET ${HELLO} HTTP/1.1\r\n${HOST}x-filler: ${"f".repeat(20_000)}\r\n\r\n`],
  ])("%s: 431 with a JSON invalid_input, then the connection closes", async (_, raw) => {
    const responses = await exchange(port, [raw]);
    expect(responses).toHaveLength(1);
    expectRefusal(responses[0], 431, /over 16384 bytes/);
    expect(responses[0]?.headers.get("connection")).toBe("close");
  });

  it.each([
    ["a malformed request line", "GARBAGE\r\n\r\n"],
    ["a space in the path", `GET /v1/companies/a b/hello HTTP/1.1\r\n${HOST}\r\n`],
    ["an unknown HTTP version", `GET ${HELLO} HTTP/3.0\r\n${HOST}\r\n`],
    ["a header line without a colon", `GET ${HELLO} HTTP/1.1\r\n${HOST}no colon here\r\n\r\n`],
    ["an absolute target with a bad host", `GET http://[bad/v1/nothing HTTP/1.1\r\n${HOST}\r\n`],
    ["an absolute target with a port over 65535", `GET http://a:99999${HELLO} HTTP/1.1\r\n${HOST}\r\n`],
    ["a CONNECT to a bad authority", `CONNECT http://[bad HTTP/1.1\r\n${HOST}\r\n`],
    [
      "a non-numeric Content-Length",
      `POST /v1/persons/search HTTP/1.1\r\n${HOST}Content-Length: abc\r\n\r\n`,
    ],
  ])("%s: 400 with a JSON invalid_input, then the connection closes", async (_, raw) => {
    const responses = await exchange(port, [raw]);
    expect(responses).toHaveLength(1);
    expectRefusal(responses[0], 400, /^malformed HTTP request$/);
  });

  it("an HTTP/1.1 request without Host: 400 with a JSON invalid_input", async () => {
    const [response] = await exchange(port, [
      `GET ${HELLO} HTTP/1.1\r\nAuthorization: Bearer ${KEYS.full}\r\n\r\n`,
    ]);
    expectRefusal(response, 400, /Host header/);
  });

  it("an Expect other than 100-continue: 417 with a JSON invalid_input", async () => {
    const [response] = await exchange(port, [
      `GET ${HELLO} HTTP/1.1\r\n${HOST}Authorization: Bearer ${KEYS.full}\r\nExpect: teapot\r\nConnection: close\r\n\r\n`,
    ]);
    expectRefusal(response, 417, /Expect/);
  });

  it("a malformed request after a good one on a kept-alive connection: both answered", async () => {
    const responses = await exchange(port, [
      `GET ${HELLO} HTTP/1.1\r\n${HOST}Authorization: Bearer ${KEYS.full}\r\n\r\n`,
      "GARBAGE\r\n\r\n",
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 400]);
    expectRefusal(responses[1], 400, /malformed/);
  });

  it("each refusal is logged with its request id and Node's cause, never the request's text", async () => {
    output.length = 0;
    const [response] = await exchange(port, [`GET /${"q".repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n`]);
    const requestId = response?.headers.get("x-request-id");
    const lines = output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.message === "request refused")).toEqual([
      expect.objectContaining({ requestId, status: 431, cause: "HPE_HEADER_OVERFLOW" }),
    ]);
    expect(output.join("")).not.toContain("qqqq");
  });
});
