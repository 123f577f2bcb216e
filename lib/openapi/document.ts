/**
 * The OpenAPI 3.1 document, generated from the route table and the Zod schemas (one source of
 * truth). `npm run openapi` writes it to openapi.json (every route, the servers of every stage); a
 * test fails when that file is stale. The local server serves its own: its URL, its stage's routes.
 */
import { readFileSync } from "node:fs";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { ROUTES, type RouteDefinition, type RouteTable, routesForStage } from "../routes.js";
import type { Stage } from "../stages.js";
import { errorBodySchema } from "./error-schemas.js";

/** The document's `info.version`: the package's version. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Response headers, declared once under components.headers and referenced by every response. */
const HEADERS = {
  RequestId: {
    description:
      "The request's ID, on every response. Report it (with the time) when a request fails; never the key.",
    schema: { type: "string" as const },
  },
  CacheControl: {
    description:
      "Always `no-store`, on every response: answers may carry personal data; no cache may keep them.",
    schema: { type: "string" as const, const: "no-store" },
  },
  ContentTypeOptions: {
    description:
      "Always `nosniff`, on every response: the body is its declared content type and nothing else.",
    schema: { type: "string" as const, const: "nosniff" },
  },
  WwwAuthenticate: {
    description: "The authentication scheme: `Bearer` (send `Authorization: Bearer <key>`).",
    schema: { type: "string" as const, const: "Bearer" },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer" as const, minimum: 1 },
  },
};
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The headers of every response, whatever its status. */
const EVERY_RESPONSE_HEADERS = {
  "x-request-id": header("RequestId"),
  "Cache-Control": header("CacheControl"),
  "X-Content-Type-Options": header("ContentTypeOptions"),
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Invalid input",
  401: "Missing or invalid key",
  403: "Operation or company not permitted",
  404: "Not found",
  429: "Rate limited",
  500: "Internal error",
};

/** API Gateway URLs of a deployed stage; the API id and region come from the stack outputs. */
function apiServers(route: RouteDefinition) {
  const stages = route.draft ? ["dev"] : ["dev", "sandbox", "prod"];
  const host = route.api === "search" ? "{base_url}" : "{hello_base_url}";
  return [
    {
      url: "https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}",
      description: `${host}: the ${route.api} API of a deployed stage (stack output ${route.api === "search" ? "SearchApiUrl" : "GreetingApiUrl"})`,
      variables: {
        restApiId: { default: "restApiId", description: "API Gateway REST API id of the stage" },
        region: { default: "us-east-1" },
        stage: { default: "dev", enum: stages },
      },
    },
    { url: "http://127.0.0.1:3000", description: "npm start (both APIs on one local server)" },
  ];
}

/** Local servers serve their own document: one server (the whole API on it), the stage's routes. */
export interface ServedDocumentOptions {
  readonly stage: Stage;
  /** Where the server listens, e.g. http://127.0.0.1:3000. */
  readonly serverUrl: string;
}

const DRAFT =
  "**Draft** (coming soon): served only in `dev` (and locally); not deployed in `sandbox` or `prod`, where it answers 404. Its contract may change before release.";

function responses(route: RouteDefinition): ZodOpenApiOperationObject["responses"] {
  const answers: ZodOpenApiOperationObject["responses"] = {
    200: {
      description: "OK",
      headers: EVERY_RESPONSE_HEADERS,
      content: { "application/json": { schema: route.response } },
    },
  };
  for (const [status, codes] of Object.entries(route.errors)) {
    if (!codes) continue;
    answers[status as `${4 | 5}${string}`] = {
      description: STATUS_TEXT[Number(status)] ?? "Error",
      headers: {
        ...EVERY_RESPONSE_HEADERS,
        ...(codes.includes("rate_limited") ? { "Retry-After": header("RetryAfter") } : {}),
        ...(codes.includes("invalid_api_key") ? { "WWW-Authenticate": header("WwwAuthenticate") } : {}),
      },
      content: { "application/json": { schema: errorBodySchema(codes) } },
    };
  }
  return answers;
}

/** Which keys may call the route: the operation it needs, or none. */
function keyNeeded(route: RouteDefinition): string {
  return route.operation === null
    ? "**Key**: any valid key; the route needs no operation."
    : `**Key**: needs the operation \`${route.operation}\`.`;
}

function operation(route: RouteDefinition, served: boolean): ZodOpenApiOperationObject {
  const description = `${route.description}\n\n${keyNeeded(route)}`;
  return {
    operationId: route.id.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()),
    summary: route.draft ? `${route.summary} (draft)` : route.summary,
    description: route.draft ? `${DRAFT}\n\n${description}` : description,
    tags: [route.api === "search" ? "Search (draft)" : "Greeting"],
    // The document's one server serves every route; per-operation servers would override it.
    ...(served ? {} : { servers: apiServers(route) }),
    ...(route.draft ? { "x-draft": true, "x-badges": [{ name: "Draft", color: "orange" }] } : {}),
    ...(route.pathParameters ? { requestParams: { path: route.pathParameters.schema } } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            content: { "application/json": { schema: route.body.schema } },
          },
        }
      : {}),
    responses: responses(route),
  };
}

const TAGS = [
  { name: "Search (draft)", description: "Draft routes: served only in dev and locally." },
  { name: "Greeting", description: "Connectivity and access check." },
];

/**
 * openapi.json's document, or with `served`, the one a local server serves about itself; of the
 * routes of `table` (tests pass a copy of ROUTES with more).
 */
export function openApiDocument(served?: ServedDocumentOptions, table: RouteTable = ROUTES) {
  const routes = served ? routesForStage(served.stage, table) : table;
  const paths: ZodOpenApiPathsObject = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const routeOperation = operation(route, served !== undefined);
    for (const tag of routeOperation.tags ?? []) tags.add(tag);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: routeOperation };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Partner Directory Search Service",
      version: PACKAGE_VERSION,
      license: { name: "Proprietary: for partners under agreement", identifier: "LicenseRef-Proprietary" },
      description: [
        "Find people and their employment records (demographics, contact, membership, benefits participation and coverage) in the companies your API key may read.",
        "",
        "**Authentication**: `Authorization: Bearer pd_live_…`. Keys are scoped to operations and companies. A missing, malformed, unknown or revoked key: 401 `invalid_api_key` with `WWW-Authenticate: Bearer`; an operation or company the key may not use: 403 `forbidden`.",
        "",
        '**Errors**: `{"error": "<code>"}`; only `invalid_input` adds a `message`. Every response carries `x-request-id`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. An unknown route answers 404 `not_found`, another method on a known path 405 `method_not_allowed` with `Allow` naming the methods it serves.',
        "",
        "**Rate limits**: per key, a token bucket (rate per second and burst) with an optional daily quota; exhausted: 429 `rate_limited` with `Retry-After`.",
        "",
        "**Hosts**: the search routes are served by `{base_url}` and the greeting by `{hello_base_url}`: two APIs with the same keys.",
      ].join("\n"),
    },
    servers: served
      ? [{ url: served.serverUrl, description: `this server (npm start, STAGE=${served.stage})` }]
      : [{ url: "http://127.0.0.1:3000", description: "npm start" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS.filter((tag) => tags.has(tag.name)),
    components: {
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pd_<live|test>_<32 base62><6 base62 CRC32 check>",
          description: "A partner API key. Keep it in a secrets manager; never send it by email.",
        },
      },
    },
    paths,
  });
}
