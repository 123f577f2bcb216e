import { echoRoute } from "./echo-route.js";
import { gatewayEvent, invoke, jsonOf, lambdaContext } from "./harness.js";

const NOT_JSON = "request body is not valid JSON";
const NOT_OBJECT = "request body must be a JSON object";
const CONTENT_TYPE = "content-type must be application/json";

describe("JSON body parsing", () => {
  it.each([
    ["an unclosed object", "{"],
    ["single quotes", "{'note':'x'}"],
    ["a trailing comma", '{"note":"x",}'],
    ["a bare word", "undefined"],
    ["NaN", "NaN"],
    ["two objects", "{}{}"],
  ])("refuses invalid JSON (%s) with invalid_input", async (_, body) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body });
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual({ error: "invalid_input", message: NOT_JSON });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ["an empty array", "[]"],
    ["an array of objects", '[{"note":"x"}]'],
    ["null", "null"],
    ["a number", "42"],
    ["a string", '"note"'],
    ["a boolean", "true"],
  ])("refuses JSON that is not an object (%s)", async (_, body) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body });
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual({ error: "invalid_input", message: NOT_OBJECT });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ["no content type", {}],
    ["text/plain", { "Content-Type": "text/plain" }],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }],
    ["multipart", { "content-type": "multipart/form-data; boundary=x" }],
    ["application/jsonx", { "content-type": "application/jsonx" }],
    ["an empty content type", { "content-type": "" }],
  ])("refuses a body sent with %s", async (_, headers) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body: '{"note":"x"}', headers });
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual({ error: "invalid_input", message: CONTENT_TYPE });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ["Content-Type", "application/json"],
    ["content-type", "application/json; charset=utf-8"],
    ["CONTENT-TYPE", "Application/JSON"],
  ])("accepts %s: %s", async (name, value) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body: '{"note":"x"}', headers: { [name]: value } });
    expect(response.statusCode).toBe(200);
    expect(calls[0]?.body).toEqual({ note: "x", limit: 50 });
  });

  it.each([
    ["absent", null, {}],
    ["empty", "", {}],
    ["absent, with a JSON content type", null, { "content-type": "application/json" }],
    ["empty, with another content type", "", { "content-type": "text/plain" }],
  ])("treats an %s body as {} (schema defaults apply)", async (_, body, headers) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body, headers });
    expect(response.statusCode).toBe(200);
    expect(calls[0]?.body).toEqual({ limit: 50 });
    expect(jsonOf(response)).toEqual({ echo: { limit: 50 } });
  });

  it("copes with API Gateway's null headers: a body is refused for its content type, no body is {}", async () => {
    const { handler, calls } = echoRoute();
    const withoutHeaders = (body: string | null) => {
      const event = gatewayEvent({ body });
      Object.assign(event, { headers: null, multiValueHeaders: null });
      return handler(event, lambdaContext());
    };
    expect(jsonOf(await withoutHeaders('{"note":"x"}'))).toEqual({
      error: "invalid_input",
      message: CONTENT_TYPE,
    });
    expect((await withoutHeaders(null)).statusCode).toBe(200);
    expect(calls[0]?.body).toEqual({ limit: 50 });
  });

  it("parses a base64-encoded body", async () => {
    const { handler, calls } = echoRoute();
    const body = Buffer.from('{"note":"é"}').toString("base64");
    expect((await invoke(handler, { body, isBase64Encoded: true })).statusCode).toBe(200);
    expect(calls[0]?.body.note).toBe("é");
  });

  it.each([
    ["__proto__ at the top", '{"__proto__":{"polluted":true}}', "__proto__"],
    ["__proto__ nested", '{"filters":{"__proto__":{"polluted":true}}}', "__proto__"],
    ["__proto__ in an array", '{"tags":[{"__proto__":{}}]}', "__proto__"],
    ["constructor.prototype", '{"constructor":{"prototype":{"polluted":true}}}', "constructor"],
  ])("refuses a prototype key (%s)", async (_, body, key) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body });
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual({
      error: "invalid_input",
      message: `request body contains the forbidden key "${key}"`,
    });
    expect(calls).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("accepts the text __proto__ as a value", async () => {
    const { handler, calls } = echoRoute();
    expect((await invoke(handler, { body: '{"note":"__proto__"}' })).statusCode).toBe(200);
    expect(calls[0]?.body.note).toBe("__proto__");
  });
});
