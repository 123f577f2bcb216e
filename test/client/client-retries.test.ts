/** The client's behaviour per answer, with a scripted fetch: no server, no waiting. */
import { PartnerDirectoryClient, PartnerDirectoryError, type RetryInfo } from "../../lib/client/index.js";

const KEY = "pd_test_canaryCANARYcanaryCANARYcanary00AAAAAA";

type Scripted = { status: number; body?: string; headers?: Record<string, string> } | { throws: unknown };

function scriptedClient(
  script: Scripted[],
  options: { maxAttempts?: number; maxRetryAfterSeconds?: number } = {},
) {
  const calls: { url: string; init: RequestInit }[] = [];
  const waits: number[] = [];
  const retries: RetryInfo[] = [];
  const fetchStub = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = script.shift();
    if (!next) throw new Error("script exhausted");
    if ("throws" in next) throw next.throws;
    return new Response(next.body ?? "{}", {
      status: next.status,
      headers: { "x-request-id": `req-${calls.length}`, ...next.headers },
    });
  }) as typeof fetch;
  const client = new PartnerDirectoryClient({
    baseUrl: "https://search.example.test/v1-stage/",
    helloBaseUrl: "https://hello.example.test",
    apiKey: KEY,
    retry: { maxAttempts: options.maxAttempts ?? 3, baseDelayMs: 100, maxDelayMs: 1000, ...options },
    fetch: fetchStub,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    onRetry: (info) => retries.push(info),
  });
  return { client, calls, waits, retries };
}

const PAGE = (total: number, ids: string[]) =>
  JSON.stringify({
    asOf: "2026-11-23T00:00:00Z",
    persons: ids.map((id) => ({ id })),
    pagination: { limit: 2, offset: 0, total },
  });

describe("PartnerDirectoryClient requests", () => {
  it("sends the key as a bearer token, JSON bodies to the search base URL", async () => {
    const { client, calls } = scriptedClient([{ status: 200, body: PAGE(0, []) }]);
    await client.searchPersons({ lastName: "gar", limit: 2 });
    expect(calls[0]?.url).toBe("https://search.example.test/v1-stage/v1/persons/search");
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
    });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ lastName: "gar", limit: 2 });
  });

  it("sends the greeting to its own base URL, the company id escaped, with no body", async () => {
    const { client, calls } = scriptedClient([{ status: 200, body: '{"message":"hi"}' }]);
    expect(await client.hello("a/b c")).toEqual({ message: "hi" });
    expect(calls[0]?.url).toBe("https://hello.example.test/v1/companies/a%2Fb%20c/hello");
    expect(calls[0]?.init.method).toBe("GET");
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it("asks about the key on the greeting's base URL, with no body", async () => {
    const { client, calls } = scriptedClient([{ status: 200, body: '{"keyId":"key_0123456789abcdef"}' }]);
    expect(await client.key()).toEqual({ keyId: "key_0123456789abcdef" });
    expect(calls.map((call) => [call.url, call.init.method, call.init.body])).toEqual([
      ["https://hello.example.test/v1/key", "GET", undefined],
    ]);
  });

  it("refuses a key that could not be sent, without repeating it", () => {
    const bad = "pd_test_secret\nInjected: yes";
    expect(() => new PartnerDirectoryClient({ baseUrl: "http://x.test", apiKey: bad })).toThrow(TypeError);
    try {
      new PartnerDirectoryClient({ baseUrl: "http://x.test", apiKey: bad });
    } catch (error) {
      expect(String(error)).not.toContain("secret");
    }
    expect(() => new PartnerDirectoryClient({ baseUrl: "http://x.test", apiKey: "" })).toThrow(/apiKey/);
    expect(() => new PartnerDirectoryClient({ baseUrl: "ftp://x.test", apiKey: KEY })).toThrow(/baseUrl/);
    expect(() => new PartnerDirectoryClient({ baseUrl: "not a url", apiKey: KEY })).toThrow(/baseUrl/);
  });

  it("keeps the key out of the client's printable state", () => {
    const { client } = scriptedClient([]);
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(Object.values(client)).not.toContain(KEY);
  });
});

describe("PartnerDirectoryClient retries", () => {
  it("retries a 5xx with backoff and returns the answer that follows", async () => {
    const { client, calls, waits, retries } = scriptedClient([
      { status: 500, body: '{"error":"internal_error"}' },
      { status: 503, body: "Service Unavailable" },
      { status: 200, body: '{"message":"hi"}' },
    ]);
    expect(await client.hello("acme")).toEqual({ message: "hi" });
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
    expect(retries.map((retry) => (retry.error as PartnerDirectoryError).requestId)).toEqual([
      "req-1",
      "req-2",
    ]);
  });

  it("waits Retry-After on 429, then succeeds", async () => {
    const { client, waits } = scriptedClient([
      { status: 429, body: '{"error":"rate_limited"}', headers: { "retry-after": "2" } },
      { status: 200, body: '{"message":"hi"}' },
    ]);
    await client.hello("acme");
    expect(waits).toEqual([2050]);
  });

  it("retries network failures and timeouts", async () => {
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    const { client, calls } = scriptedClient([
      { throws: new TypeError("fetch failed") },
      { throws: timeout },
      { status: 200, body: '{"message":"hi"}' },
    ]);
    await client.hello("acme");
    expect(calls).toHaveLength(3);
  });

  it("is bounded: after maxAttempts it throws the last error, with its request id", async () => {
    const { client, calls } = scriptedClient(
      Array.from({ length: 5 }, () => ({ status: 500, body: '{"error":"internal_error"}' })),
    );
    const error = await client.hello("acme").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PartnerDirectoryError);
    expect(error).toMatchObject({ status: 500, error: "internal_error", requestId: "req-3" });
    expect(calls).toHaveLength(3);
  });

  it("throws the last network error when every attempt fails to connect", async () => {
    const { client } = scriptedClient([
      { throws: new TypeError("a") },
      { throws: new TypeError("b") },
      { throws: new TypeError("c") },
    ]);
    await expect(client.hello("acme")).rejects.toThrow("c");
  });

  it("does not retry a 4xx other than 429", async () => {
    for (const [status, code] of [
      [400, "invalid_input"],
      [401, "invalid_api_key"],
      [403, "forbidden"],
      [404, "not_found"],
    ] as const) {
      const { client, calls } = scriptedClient([{ status, body: JSON.stringify({ error: code }) }]);
      await expect(client.searchEmployees({ companyId: "acme" })).rejects.toMatchObject({
        status,
        error: code,
      });
      expect(calls).toHaveLength(1);
    }
  });

  it("fails at once on a 429 whose Retry-After is past the bound (a spent daily quota)", async () => {
    const { client, calls } = scriptedClient(
      [{ status: 429, body: '{"error":"rate_limited"}', headers: { "retry-after": "3600" } }],
      { maxRetryAfterSeconds: 60 },
    );
    await expect(client.hello("acme")).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
    expect(calls).toHaveLength(1);
  });

  it("never puts the key in an error", async () => {
    const { client } = scriptedClient([{ status: 401, body: '{"error":"invalid_api_key"}' }]);
    const error = (await client.hello("acme").catch((thrown: unknown) => thrown)) as PartnerDirectoryError;
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(KEY);
  });

  it("treats a 2xx that is not JSON as an unexpected response, not retried", async () => {
    const { client, calls } = scriptedClient([{ status: 200, body: "<html>" }]);
    await expect(client.hello("acme")).rejects.toMatchObject({ status: 200, error: "unexpected_response" });
    expect(calls).toHaveLength(1);
  });

  it("stops at once when the caller cancels, waits included", async () => {
    const controller = new AbortController();
    const client = new PartnerDirectoryClient({
      baseUrl: "http://x.test",
      apiKey: KEY,
      retry: { maxAttempts: 5, baseDelayMs: 60_000 },
      fetch: (async () => new Response('{"error":"internal_error"}', { status: 500 })) as typeof fetch,
      onRetry: () => controller.abort(new Error("caller gave up")),
    });
    await expect(client.hello("acme", { signal: controller.signal })).rejects.toThrow("caller gave up");
  });
});

describe("PartnerDirectoryClient paging", () => {
  it("walks offsets until total, starting where asked", async () => {
    const { client, calls } = scriptedClient([
      { status: 200, body: PAGE(5, ["a", "b"]) },
      { status: 200, body: PAGE(5, ["c", "d"]) },
      { status: 200, body: PAGE(5, ["e"]) },
    ]);
    const ids: string[] = [];
    for await (const person of client.allPersons({ limit: 2, offset: 0 })) ids.push(person.id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(calls.map((call) => JSON.parse(String(call.init.body)).offset)).toEqual([0, 2, 4]);
  });

  it("ends on an empty page even if total promised more (records removed meanwhile)", async () => {
    const { client, calls } = scriptedClient([
      { status: 200, body: PAGE(9, ["a"]) },
      { status: 200, body: PAGE(9, []) },
    ]);
    const ids: string[] = [];
    for await (const person of client.allPersons({ limit: 1 })) ids.push(person.id);
    expect(ids).toEqual(["a"]);
    expect(calls).toHaveLength(2);
  });

  it("makes no further request when the consumer stops early", async () => {
    const { client, calls } = scriptedClient([{ status: 200, body: PAGE(4, ["a", "b"]) }]);
    for await (const person of client.allPersons({ limit: 2 })) if (person.id === "a") break;
    expect(calls).toHaveLength(1);
  });
});
