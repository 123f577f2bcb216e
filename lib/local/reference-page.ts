/**
 * The API reference page of the local server: GET /docs renders this server's /openapi.json (its
 * URL, the routes its stage serves) with Scalar (`@scalar/api-reference`, a devDependency), whose
 * browser bundle this server serves itself from node_modules: no CDN, no request leaves the
 * machine. Try-it requests go to this same server.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DocumentUnavailableError, type GatewayDocument } from "./gateway.js";

const REFERENCE_PAGE_PATH = "/docs";
export const SCALAR_SCRIPT_PATH = "/docs/scalar.js";
export const REFERENCE_SCRIPT_PATH = "/docs/reference.js";

const JS = "text/javascript; charset=utf-8";

export const SCALAR_MISSING_MESSAGE =
  "The API reference page needs @scalar/api-reference, a devDependency that is not installed: run npm install (not npm install --omit=dev), then reload.";

/** Where the installed @scalar/api-reference keeps its browser bundle (its exports do not name it). */
export function installedScalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
  return join(dirname(entry), "browser", "standalone.js");
}

interface Bundle {
  body: string;
  /** Short content hash: the script's URL carries it, so a new bundle is a new URL. */
  hash: string;
}

/** Reads the bundle when first asked for and keeps it; while it is missing, every ask tries again. */
function bundleReader(locate: () => string): () => Bundle {
  let bundle: Bundle | undefined;
  return () => {
    if (bundle) return bundle;
    let text: string;
    try {
      text = readFileSync(locate(), "utf8");
    } catch {
      throw new DocumentUnavailableError(SCALAR_MISSING_MESSAGE);
    }
    // Its source map is not served (17 MB, for debugging Scalar itself): no reference to a 404.
    const body = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    bundle = { body, hash: createHash("sha256").update(body).digest("hex").slice(0, 16) };
    return bundle;
  };
}

function pageHtml(scriptHash: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>API reference: Partner Directory Search Service (local)</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>This page needs JavaScript. The document it shows is at <a href="/openapi.json">/openapi.json</a>.</noscript>
    <!-- Not id="api-reference": Scalar's bundle would mount a second, unconfigured copy there. -->
    <div id="app"></div>
    <script src="${SCALAR_SCRIPT_PATH}?v=${scriptHash}"></script>
    <script src="${REFERENCE_SCRIPT_PATH}"></script>
  </body>
</html>
`;
}

/**
 * Scalar's configuration, run in the page. This server's /openapi.json names it as
 * http://127.0.0.1:<port>; the page may be opened as localhost, or another server's document (with
 * per-operation servers, which win over the top-level ones and the `servers` option) may be shown.
 * So the document Scalar fetches from /openapi.json gets this page's own origin as the first server
 * everywhere: the examples and "Test Request" call this server, same origin (no CORS, no proxy).
 * Everything else that would reach the network is off: web fonts, telemetry, the AI agent, MCP, the
 * hosted API client button.
 */
const REFERENCE_SCRIPT = `// The API reference of this local server: Scalar, rendering /openapi.json.
(() => {
  "use strict";
  const here = { url: window.location.origin, description: "This server (where this page comes from)" };
  const hereFirst = (servers) => [here, ...(Array.isArray(servers) ? servers : []).filter((s) => s.url !== here.url)];
  const withThisServer = (document) => {
    document.servers = hereFirst(document.servers);
    for (const pathItem of Object.values(document.paths ?? {})) {
      if (Array.isArray(pathItem.servers)) pathItem.servers = hereFirst(pathItem.servers);
      for (const operation of Object.values(pathItem)) {
        if (operation && Array.isArray(operation.servers)) operation.servers = hereFirst(operation.servers);
      }
    }
    return document;
  };
  const documentUrl = new URL("/openapi.json", window.location.origin).href;
  const urlOf = (input) => (typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  Scalar.createApiReference("#app", {
    url: "/openapi.json",
    // Used for the document and for "Test Request" alike; only the document is changed.
    customFetch: async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok || new URL(urlOf(input), window.location.href).href !== documentUrl) return response;
      const body = JSON.stringify(withThisServer(await response.json()));
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    // Three routes: every tag open, so the sidebar lists them all.
    defaultOpenAllTags: true,
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: "never",
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    persistAuth: false,
    authentication: { preferredSecurityScheme: "bearerAuth" },
  });
})();
`;

export interface ReferencePageOptions {
  /** Where Scalar's browser bundle is; default: the installed @scalar/api-reference. */
  bundlePath?: () => string;
}

/** The gateway documents of the reference page: /docs (and /docs/), its script and Scalar's bundle. */
export function referencePageDocuments(options: ReferencePageOptions = {}): Map<string, GatewayDocument> {
  const bundle = bundleReader(options.bundlePath ?? installedScalarBundlePath);
  const page: GatewayDocument = {
    contentType: "text/html; charset=utf-8",
    // Checked on every request: with the bundle missing the page says why (503), not a blank page.
    body: () => pageHtml(bundle().hash),
    cacheControl: "no-cache",
  };
  return new Map<string, GatewayDocument>([
    [REFERENCE_PAGE_PATH, page],
    [`${REFERENCE_PAGE_PATH}/`, page],
    [REFERENCE_SCRIPT_PATH, { contentType: JS, body: REFERENCE_SCRIPT, cacheControl: "no-cache" }],
    [
      SCALAR_SCRIPT_PATH,
      {
        contentType: JS,
        body: () => bundle().body,
        // The page asks for it with its content hash in the query, so a changed bundle is a new URL.
        cacheControl: "public, max-age=31536000, immutable",
      },
    ],
  ]);
}
