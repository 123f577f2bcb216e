import { echoRoute, jsonBodyOfBytes } from "./echo-route.js";
import { invoke, jsonOf } from "./harness.js";

const MIB = 1_048_576;
const TOO_LARGE = { error: "invalid_input", message: "request body is larger than 1048576 bytes" };
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("body size limit (1 MiB, checked before parsing)", () => {
  it("lets a body of exactly 1,048,576 bytes through", async () => {
    const { handler, calls } = echoRoute();
    const body = jsonBodyOfBytes(MIB);
    const response = await invoke(handler, { body });
    expect(response.statusCode).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.note).toHaveLength(MIB - 11);
  });

  it("refuses 1,048,577 bytes with invalid_input, without running the handler", async () => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, { body: jsonBodyOfBytes(MIB + 1) });
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual(TOO_LARGE);
    expect(calls).toHaveLength(0);
  });

  it("counts bytes, not characters", async () => {
    const { handler } = echoRoute();
    // Two-byte characters: fewer than 1 MiB characters, but 1 MiB + 1 bytes.
    const body = jsonBodyOfBytes(MIB + 1, "é");
    expect(body.length).toBeLessThan(MIB);
    expect(jsonOf(await invoke(handler, { body }))).toEqual(TOO_LARGE);
    expect((await invoke(handler, { body: jsonBodyOfBytes(MIB, "é") })).statusCode).toBe(200);
  });

  it("counts the decoded bytes of a base64 body", async () => {
    const { handler, calls } = echoRoute();
    const exact = await invoke(handler, { body: base64(jsonBodyOfBytes(MIB)), isBase64Encoded: true });
    expect(exact.statusCode).toBe(200);
    expect(calls[0]?.body.note).toHaveLength(MIB - 11);
    const over = await invoke(handler, { body: base64(jsonBodyOfBytes(MIB + 1)), isBase64Encoded: true });
    expect(over.statusCode).toBe(400);
    expect(jsonOf(over)).toEqual(TOO_LARGE);
  });

  it("refuses before parsing: an oversized body that is not JSON, or not declared JSON, gets the size message", async () => {
    const { handler } = echoRoute();
    const notJson = `{${"x".repeat(MIB)}`;
    expect(jsonOf(await invoke(handler, { body: notJson }))).toEqual(TOO_LARGE);
    const undeclared = await invoke(handler, { body: jsonBodyOfBytes(MIB + 1), headers: {} });
    expect(jsonOf(undeclared)).toEqual(TOO_LARGE);
    const schemaBreaking = JSON.stringify({ unknown: "x".repeat(MIB) });
    expect(jsonOf(await invoke(handler, { body: schemaBreaking }))).toEqual(TOO_LARGE);
  });
});

describe("body bytes: UTF-8, counted as received", () => {
  const bytes = (...pieces: (string | number[])[]) =>
    Buffer.concat(
      pieces.map((piece) => (typeof piece === "string" ? Buffer.from(piece) : Buffer.from(piece))),
    );
  const sent = (body: Buffer) => ({ body: body.toString("base64"), isBase64Encoded: true });
  const NOT_UTF8 = { error: "invalid_input", message: "request body is not valid UTF-8" };

  it.each([
    ["a lone 0xFF", bytes('{"note":"', [0xff], '"}')],
    ["a truncated sequence", bytes('{"note":"', [0xc3], '"}')],
    ["an encoded surrogate", bytes('{"note":"', [0xed, 0xa0, 0x80], '"}')],
    ["an overlong form", bytes('{"note":"', [0xc0, 0xaf], '"}')],
  ])("refuses a body that is not valid UTF-8 (%s), without running the handler", async (_, body) => {
    const { handler, calls } = echoRoute();
    const response = await invoke(handler, sent(body));
    expect(response.statusCode).toBe(400);
    expect(jsonOf(response)).toEqual(NOT_UTF8);
    expect(calls).toHaveLength(0);
  });

  it("hands the handler valid UTF-8 as text", async () => {
    const { handler, calls } = echoRoute();
    expect((await invoke(handler, sent(bytes('{"note":"Zoë 😀"}')))).statusCode).toBe(200);
    expect(calls[0]?.body.note).toBe("Zoë 😀");
  });

  it("counts 400 KB of 0xFF as 400 KB: refused as not UTF-8, not as too large", async () => {
    const { handler } = echoRoute();
    const response = await invoke(handler, sent(Buffer.alloc(400_000, 0xff)));
    expect(jsonOf(response)).toEqual(NOT_UTF8);
  });
});
