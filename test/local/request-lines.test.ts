import { accessLine, refusedLine } from "../../lib/local/request-lines.js";

const requestId = "4d1ac6c2-9b6d-4f64-ad15-42784b449f43";

describe("a request's line on a terminal", () => {
  it("names the method, the route's template, the status, the time and the request id", () => {
    expect(
      accessLine({
        requestId,
        httpMethod: "GET",
        resourcePath: "/v1/companies/{companyId}/hello",
        status: 200,
        latencyMs: 12,
        keyId: "key_XEakKYIybcImYq0L",
      }),
    ).toBe(`GET /v1/companies/{companyId}/hello 200 12 ms ${requestId}`);
  });

  it("shows no path when none matched: the path is the caller's text", () => {
    expect(accessLine({ requestId, httpMethod: "GET", status: 404, latencyMs: 0 })).toBe(
      `GET (no route) 404 0 ms ${requestId}`,
    );
  });

  it("says why a request Node refused never reached the gateway", () => {
    expect(refusedLine({ requestId, status: 400, cause: "malformed request" })).toBe(
      `(refused before parsing: malformed request) 400 ${requestId}`,
    );
  });
});
