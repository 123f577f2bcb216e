import { echoRoute } from "./echo-route.js";
import { invoke, jsonOf } from "./harness.js";

async function refusal(body: unknown) {
  const { handler, calls } = echoRoute();
  const response = await invoke(handler, { body: JSON.stringify(body) });
  expect(response.statusCode).toBe(400);
  expect(calls).toHaveLength(0);
  const json = jsonOf(response);
  expect(Object.keys(json).sort()).toEqual(["error", "message"]);
  expect(json.error).toBe("invalid_input");
  return String(json.message);
}

describe("strict body validation", () => {
  it("names an unknown field", async () => {
    expect(await refusal({ nmae: "x" })).toBe('unknown field "nmae"');
  });

  it("cuts a long unknown field name short, and names only the first five of many", async () => {
    const long = "x-".repeat(5_000);
    expect(await refusal({ [long]: 1 })).toBe(`unknown field "${"x-".repeat(40)}…"`);
    // A cut inside a base62 run drops what could be the head of a key split by the cut.
    expect(await refusal({ ["x".repeat(10_000)]: 1 })).toBe(`unknown field "${"x".repeat(80 - 37)}…"`);
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`f${i}`, i]));
    const message = await refusal(many);
    expect(message).toBe(
      'unknown field "f0"; unknown field "f1"; unknown field "f2"; unknown field "f3"; unknown field "f4"; and 995 more unknown fields',
    );
  });

  it("names an unknown nested field with its path", async () => {
    expect(await refusal({ filters: { cty: "Paris" } })).toBe('unknown field "filters.cty"');
  });

  it.each([
    [{ note: 5 }, "note: expected string, received number"],
    [{ note: null }, "note: expected string, received null"],
    [{ note: ["x"] }, "note: expected string, received array"],
    [{ limit: "5" }, "limit: expected number, received string"],
    [{ limit: 2.5 }, "limit: expected integer, received number"],
    [{ filters: "Paris" }, "filters: expected object, received string"],
    [{ tags: ["a", 7] }, "tags[1]: expected string, received number"],
  ])("names the field and the rule of a wrong type: %j", async (body, message) => {
    expect(await refusal(body)).toBe(message);
  });

  it.each([
    ['{"limit":1e400}', "limit: must be a finite number"],
    ['{"limit":-1e400}', "limit: must be a finite number"],
    ['{"note":1e400}', "note: expected string, received number"],
    ['{"tags":["a",1e999]}', "tags[1]: expected string, received number"],
  ])(
    "says a number JSON reads as infinite is not finite where a number belongs: %s",
    async (text, message) => {
      const { handler, calls } = echoRoute();
      const response = await invoke(handler, { body: text });
      expect(response.statusCode).toBe(400);
      expect(calls).toHaveLength(0);
      expect(jsonOf(response)).toEqual({ error: "invalid_input", message });
    },
  );

  it.each([
    [{ limit: 0 }, "limit: must be at least 1"],
    [{ limit: 101 }, "limit: must be at most 100"],
  ])("names the field and the bound: %j", async (body, message) => {
    expect(await refusal(body)).toBe(message);
  });

  it("names an unsupported enum value and the allowed ones", async () => {
    const message = await refusal({ kind: "gamma" });
    expect(message).toBe('kind: unsupported value "gamma" (allowed: alpha, beta)');
  });

  it("reports every problem at once", async () => {
    const message = await refusal({ kind: "gamma", note: 1, extra: true });
    expect(message).toContain('unknown field "extra"');
    expect(message).toContain("note: expected string, received number");
    expect(message).toContain('kind: unsupported value "gamma"');
  });

  it("names the first ten problems and counts the rest, however many items are wrong", async () => {
    const message = await refusal({ tags: Array(60_000).fill(7) });
    const named = Array.from({ length: 10 }, (_, i) => `tags[${i}]: expected string, received number`);
    expect(message).toBe(`${named.join("; ")}; and 59990 more problems`);
    expect(await refusal({ tags: Array(11).fill(7) })).toMatch(/; and 1 more problem$/);
  });

  it("hands the handler the parsed body, defaults applied", async () => {
    const { handler, calls } = echoRoute();
    const body = { note: "x", kind: "beta", filters: { city: "Oslo" }, tags: [] };
    const response = await invoke(handler, { body: JSON.stringify(body) });
    expect(response.statusCode).toBe(200);
    expect(calls[0]?.body).toEqual({ ...body, limit: 50 });
  });
});
