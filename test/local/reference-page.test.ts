/**
 * The reference page's documents in the local gateway, without a browser: what /docs, its script
 * and Scalar's bundle answer, with which headers, and the 503 that says what to do when the
 * bundle (a devDependency) is missing. test/reference-page renders it in Chromium.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DocumentUnavailableError } from "../../lib/local/gateway.js";
import {
  installedScalarBundlePath,
  REFERENCE_SCRIPT_PATH,
  referencePageDocuments,
  SCALAR_MISSING_MESSAGE,
  SCALAR_SCRIPT_PATH,
} from "../../lib/local/reference-page.js";
import { bodyOf, request, setup, UUID } from "./gateway-fixture.js";

const BUNDLE = "window.Scalar={createApiReference(){}};\n//# sourceMappingURL=standalone.js.map\n";
const SERVED_BUNDLE = "window.Scalar={createApiReference(){}};\n";

let directory: string;
let bundlePath: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "reference-page-"));
  bundlePath = join(directory, "standalone.js");
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function gateway() {
  return setup({ documents: referencePageDocuments({ bundlePath: () => bundlePath }) }).gateway;
}
const get = (path: string, method = "GET") => request({ method, path, headers: {} });

describe("the reference page documents", () => {
  it("serve /docs and /docs/ as HTML that loads Scalar and the page script from this server only", async () => {
    writeFileSync(bundlePath, BUNDLE);
    const serve = gateway();
    for (const path of ["/docs", "/docs/"]) {
      const response = await serve(get(path));
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      });
      expect(response.headers["x-request-id"]).toMatch(UUID);
      const hash = createHash("sha256").update(SERVED_BUNDLE).digest("hex").slice(0, 16);
      expect(response.body).toContain(`<script src="${SCALAR_SCRIPT_PATH}?v=${hash}"></script>`);
      expect(response.body).toContain(`<script src="${REFERENCE_SCRIPT_PATH}"></script>`);
      // Nothing from elsewhere: every src and href is this server's path or a data: URL.
      const references = [...response.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
      expect(references.length).toBeGreaterThanOrEqual(3);
      for (const reference of references) expect(reference).toMatch(/^(\/(?!\/)|data:)/);
    }
  });

  it("serve Scalar's bundle as JavaScript, cacheable for good, without its source map reference", async () => {
    writeFileSync(bundlePath, BUNDLE);
    const response = await gateway()(get(SCALAR_SCRIPT_PATH));
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
    expect(response.headers["x-request-id"]).toMatch(UUID);
    expect(response.body).toBe(SERVED_BUNDLE);
  });

  it("read the bundle once: it is served from memory afterwards", async () => {
    writeFileSync(bundlePath, BUNDLE);
    const serve = gateway();
    expect((await serve(get(SCALAR_SCRIPT_PATH))).status).toBe(200);
    rmSync(bundlePath);
    expect(await serve(get(SCALAR_SCRIPT_PATH))).toMatchObject({ status: 200, body: SERVED_BUNDLE });
    expect((await serve(get("/docs"))).status).toBe(200);
  });

  it("serve the page script, which points Scalar at /openapi.json with everything off the network off", async () => {
    const response = await gateway()(get(REFERENCE_SCRIPT_PATH));
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ "content-type": "text/javascript; charset=utf-8" });
    expect(response.body).toContain('url: "/openapi.json"');
    expect(response.body).toContain("window.location.origin");
    for (const setting of ["withDefaultFonts: false", "telemetry: false", "hideClientButton: true"])
      expect(response.body).toContain(setting);
    expect(response.body).not.toMatch(/https?:\/\//);
  });

  it("answer HEAD like GET and other methods 405", async () => {
    writeFileSync(bundlePath, BUNDLE);
    const serve = gateway();
    expect((await serve(get("/docs", "HEAD"))).status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await serve(get("/docs", method));
      expect(response.status).toBe(405);
      expect(bodyOf(response)).toEqual({ error: "method_not_allowed" });
    }
  });

  it("answer 503 with what to do while the bundle is missing, and serve it once it is there", async () => {
    const serve = gateway();
    for (const path of ["/docs", "/docs/", SCALAR_SCRIPT_PATH]) {
      const response = await serve(get(path));
      expect(response.status).toBe(503);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.headers["x-request-id"]).toMatch(UUID);
      expect(bodyOf(response)).toEqual({ error: "unavailable", message: SCALAR_MISSING_MESSAGE });
    }
    expect(SCALAR_MISSING_MESSAGE).toMatch(/npm install/);
    writeFileSync(bundlePath, BUNDLE);
    expect((await serve(get("/docs"))).status).toBe(200);
    expect((await serve(get(SCALAR_SCRIPT_PATH))).status).toBe(200);
  });

  it("find the installed @scalar/api-reference bundle", () => {
    expect(existsSync(installedScalarBundlePath())).toBe(true);
  });
});

describe("gateway documents with a body function", () => {
  it("answer 503 for DocumentUnavailableError and a bare 500 for any other error", async () => {
    const { gateway: serve } = setup({
      documents: new Map([
        [
          "/a",
          {
            contentType: "text/plain",
            body: () => {
              throw new DocumentUnavailableError("run the thing");
            },
          },
        ],
        [
          "/b",
          {
            contentType: "text/plain",
            body: () => {
              throw new Error("/secret/path.ts exploded");
            },
          },
        ],
      ]),
    });
    const unavailable = await serve(get("/a"));
    expect(unavailable.status).toBe(503);
    expect(bodyOf(unavailable)).toEqual({ error: "unavailable", message: "run the thing" });
    const failed = await serve(get("/b"));
    expect(failed.status).toBe(500);
    expect(bodyOf(failed)).toEqual({ error: "internal_error" });
    expect(failed.headers["x-request-id"]).toMatch(UUID);
  });

  it("are not stored and not sniffed, unless the document chooses its own caching", async () => {
    const { gateway: serve } = setup({
      documents: new Map([
        ["/c", { contentType: "text/plain", body: "hi", cacheControl: "no-cache" }],
        ["/d", { contentType: "text/plain", body: "ho" }],
      ]),
    });
    const cached = await serve(get("/c"));
    expect(cached).toMatchObject({ status: 200, body: "hi" });
    expect(cached.headers).toEqual({
      "content-type": "text/plain",
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      "x-request-id": expect.stringMatching(UUID),
    });
    expect((await serve(get("/d"))).headers).toMatchObject({
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    const wrongMethod = await serve(get("/d", "POST"));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET, HEAD");
  });
});
