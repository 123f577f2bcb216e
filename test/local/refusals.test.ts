import { maxHeaderSize } from "node:http";
import { clientErrorRefusal, rawHttpResponse, refusalResponse } from "../../lib/local/refusals.js";

describe("clientErrorRefusal", () => {
  it.each([
    ["HPE_HEADER_OVERFLOW", 431, `request line and headers are over ${maxHeaderSize} bytes`],
    ["ERR_HTTP_REQUEST_TIMEOUT", 408, "request not received in time"],
    ["HPE_INVALID_METHOD", 400, "malformed HTTP request"],
    ["HPE_INVALID_CONTENT_LENGTH", 400, "malformed HTTP request"],
    [undefined, 400, "malformed HTTP request"],
  ])("answers Node's %s with %i", (code, status, message) => {
    expect(clientErrorRefusal(code)).toEqual({ status, message, cause: code ?? "unknown" });
  });
});

describe("rawHttpResponse", () => {
  it("writes the whole contract answer: status line, headers, length, close, JSON body", () => {
    const response = refusalResponse(clientErrorRefusal("HPE_HEADER_OVERFLOW"), "req-1");
    const text = rawHttpResponse(response);
    const [head = "", body] = text.split("\r\n\r\n");
    const [statusLine, ...headerLines] = head.split("\r\n");
    expect(statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(headerLines.sort()).toEqual(
      [
        "cache-control: no-store",
        "connection: close",
        `content-length: ${Buffer.byteLength(body ?? "")}`,
        "content-type: application/json; charset=utf-8",
        "x-content-type-options: nosniff",
        "x-request-id: req-1",
      ].sort(),
    );
    expect(JSON.parse(body ?? "")).toEqual({
      error: "invalid_input",
      message: `request line and headers are over ${maxHeaderSize} bytes`,
    });
  });
});
