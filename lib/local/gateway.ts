/**
 * A local stand-in for API Gateway REST: resolves the route, runs the real TOKEN authorizer,
 * throttles per usage key, builds the v1 proxy event and runs the real route handler. What the
 * gateway itself answers keeps the contract, as the deployed gateway responses do.
 */
import { randomUUID } from "node:crypto";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
} from "aws-lambda";
import {
  type ApiError,
  errorResponseParts,
  ForbiddenError,
  InvalidApiKeyError,
  InvalidInputError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
} from "../http/errors.js";
import type { HttpHandler } from "../http/pipeline.js";
import { jsonResponse, SECURITY_HEADERS } from "../http/response.js";
import { callerText } from "../observability/caller-text.js";
import type { RouteDefinition } from "../routes.js";
import type { Throttle } from "../stages.js";
import { cachedAuthorizer } from "./authorizer-cache.js";
import { localLambdaContext } from "./lambda-context.js";
import { routeMatcher } from "./route-match.js";
import { UsagePlanThrottler } from "./token-bucket.js";

/** API Gateway REST's own payload limit; larger requests never reach a function. */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface GatewayRequest {
  method: string;
  path: string;
  /** Raw query string without `?`, or empty. */
  query: string;
  headers: Record<string, string[]>;
  body: Buffer;
  /** True when the client sent more than GATEWAY_MAX_BODY_BYTES (the body was not kept). */
  bodyTooLarge?: boolean;
  sourceIp: string;
}

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  stage: string;
  /** The routes this stage serves (draft routes already left out where not allowed). */
  routes: readonly RouteDefinition[];
  /** The route handlers, by route id. */
  handlers: ReadonlyMap<string, HttpHandler>;
  authorizer: Authorizer;
  /** How long an authorizer answer is kept per token, as API Gateway's cache does (default 0: none). */
  authorizerCacheTtlMs?: number;
  /** The usage plan throttle of a usage key, or undefined when no plan holds it. */
  throttleFor: (usageKey: string) => Throttle | undefined | Promise<Throttle | undefined>;
  functionTimeoutMs?: number;
  now?: () => number;
  /** Public documents served for GET and HEAD without a key, by exact path: /openapi.json, /docs. */
  documents?: ReadonlyMap<string, GatewayDocument>;
  /** Receives one access-log entry per request, like API Gateway's JSON access logs. */
  accessLog?: (entry: GatewayAccessLogEntry) => void;
}

/**
 * Like API Gateway's access log, it holds no caller text: the path is the matched route's template
 * (or the document's path), and is left out for a path that matches nothing.
 */
export interface GatewayAccessLogEntry {
  requestId: string;
  httpMethod: string;
  resourcePath?: string;
  status: number;
  latencyMs: number;
  keyId?: string;
  /** Why the gateway answered 5xx itself (the error's name and message, as caller text). */
  cause?: string;
}

/** A public document: a fixed body, or one produced on request (e.g. a file read once, when first asked for). */
export interface GatewayDocument {
  contentType: string;
  /** The body, or a function giving it; it may throw DocumentUnavailableError. */
  body: string | (() => string);
  /**
   * Cache-Control instead of the default `no-store`: for public, static documents only (the
   * reference page and its scripts), never for anything that could carry personal data.
   */
  cacheControl?: string;
}

/**
 * Thrown by a document's body function when it cannot be served here (e.g. a devDependency that is
 * not installed). The gateway answers 503 with this message, which must therefore say what to do
 * and nothing of the internals; any other error is a 500 `internal_error`.
 */
export class DocumentUnavailableError extends Error {}

function documentResponse(document: GatewayDocument, requestId: string): GatewayResponse {
  let body: string;
  try {
    body = typeof document.body === "string" ? document.body : document.body();
  } catch (error) {
    if (!(error instanceof DocumentUnavailableError)) return gatewayError(error, requestId);
    const response = jsonResponse(
      503,
      { error: "unavailable", message: error.message },
      { "x-request-id": requestId },
    );
    return {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
      body: response.body,
    };
  }
  return {
    status: 200,
    // A document may choose its caching (the reference page's static assets do), nothing else.
    headers: {
      ...SECURITY_HEADERS,
      ...(document.cacheControl ? { "cache-control": document.cacheControl } : {}),
      "content-type": document.contentType,
      "x-request-id": requestId,
    },
    body,
  };
}

/** gatewayError, with the cause of a 5xx kept for the access log (no 500 goes unexplained). */
function failure(error: unknown, requestId: string, seen: LoggedRequest): GatewayResponse {
  const response = gatewayError(error, requestId);
  if (response.status >= 500) {
    seen.cause =
      error instanceof Error ? callerText(`${error.name}: ${error.message}`) : callerText(String(error));
  }
  return response;
}

function gatewayError(error: ApiError | unknown, requestId: string): GatewayResponse {
  const { status, body, headers } = errorResponseParts(error);
  const response = jsonResponse(status, body, { ...headers, "x-request-id": requestId });
  return {
    status: response.statusCode,
    headers: response.headers as Record<string, string>,
    body: response.body,
  };
}

function single(headers: Record<string, string[]>, name: string): string | undefined {
  const values = headers[name.toLowerCase()];
  return values?.[values.length - 1];
}

function globMatches(pattern: string, value: string): boolean {
  const source = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${source.join(".*")}$`).test(value);
}

function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const matches = (statement: (typeof statements)[number]) => {
    const resource = "Resource" in statement ? statement.Resource : undefined;
    const resources = Array.isArray(resource) ? resource : resource ? [resource] : [];
    return resources.some((pattern) => globMatches(pattern, methodArn));
  };
  const denied = statements.some((s) => s.Effect === "Deny" && matches(s));
  return !denied && statements.some((s) => s.Effect === "Allow" && matches(s));
}

function parseQuery(query: string): {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
} {
  if (!query) return { single: null, multi: null };
  const multi: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) multi[name] = [...(multi[name] ?? []), value];
  const singleValues = Object.fromEntries(
    Object.entries(multi).map(([name, values]) => [name, values.at(-1) ?? ""]),
  );
  return { single: singleValues, multi };
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("function timed out")), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type LoggedRequest = Pick<GatewayAccessLogEntry, "resourcePath" | "keyId" | "cause">;

const DOCUMENT_METHODS = ["GET", "HEAD"];

/** One request's way through the gateway: what it serves, and what the access log may say of it. */
interface Passage {
  readonly request: GatewayRequest;
  readonly requestId: string;
  /** What the access log may say of the request: its template and its key id. */
  readonly seen: LoggedRequest;
}

function methodArn(options: GatewayOptions, route: RouteDefinition, path: string): string {
  return `arn:aws:execute-api:local:000000000000:local-${route.api}/${options.stage}/${route.method}${path}`;
}

/** Runs the TOKEN authorizer as API Gateway does: its answer, or the refusal to send instead. */
async function authorize(
  options: GatewayOptions,
  authorizer: ReturnType<typeof cachedAuthorizer>,
  route: RouteDefinition,
  { request, requestId, seen }: Passage,
): Promise<{ refused: GatewayResponse } | { authorized: APIGatewayAuthorizerResult }> {
  // One identity: more than one Authorization header is refused, whatever their order.
  const [authorization, ...others] = request.headers.authorization ?? [];
  if (!authorization || others.length > 0)
    return { refused: gatewayError(new InvalidApiKeyError(), requestId) };
  const arn = methodArn(options, route, request.path);
  let authorized: APIGatewayAuthorizerResult;
  try {
    authorized = await authorizer(route.api, {
      type: "TOKEN",
      authorizationToken: authorization,
      methodArn: arn,
    });
  } catch (error) {
    const unauthorized = error instanceof Error && error.message === "Unauthorized";
    return { refused: failure(unauthorized ? new InvalidApiKeyError() : error, requestId, seen) };
  }
  const keyId = authorized.context?.keyId;
  if (typeof keyId === "string") seen.keyId = keyId;
  if (!policyAllows(authorized, arn))
    return { refused: gatewayError(new ForbiddenError("policy denies"), requestId) };
  return { authorized };
}

/** The usage plan's verdict: undefined when the request may go on, else the refusal. */
async function throttle(
  options: GatewayOptions,
  throttler: UsagePlanThrottler,
  authorized: APIGatewayAuthorizerResult,
  { requestId, seen }: Passage,
): Promise<GatewayResponse | undefined> {
  // As with usage plans: a usage key in no plan (or disabled) is refused like an invalid key.
  const usageKey = authorized.usageIdentifierKey;
  let plan: Throttle | undefined;
  try {
    plan = usageKey ? await options.throttleFor(usageKey) : undefined;
  } catch (error) {
    return failure(error, requestId, seen);
  }
  if (!plan || !usageKey) return gatewayError(new InvalidApiKeyError(), requestId);
  const decision = throttler.take(usageKey, plan);
  return decision.allowed
    ? undefined
    : gatewayError(new RateLimitedError(decision.retryAfterSeconds), requestId);
}

/** The v1 proxy event API Gateway REST would send the route's function. */
function proxyEvent(
  options: GatewayOptions,
  matched: { route: RouteDefinition; pathParameters: Record<string, string> },
  { request, requestId }: Passage,
  authorized: APIGatewayAuthorizerResult,
): APIGatewayProxyEvent {
  const { route, pathParameters } = matched;
  const query = parseQuery(request.query);
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, values]) => [name, values.at(-1) ?? ""]),
  );
  return {
    resource: route.path,
    path: request.path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: request.headers,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
    stageVariables: null,
    // The bytes as received, in base64, as API Gateway sends a binary media type: the function's
    // body middleware counts them and decodes them strictly (lib/http/middleware/body-limit.ts).
    body: request.body.length > 0 ? request.body.toString("base64") : null,
    isBase64Encoded: request.body.length > 0,
    requestContext: {
      accountId: "000000000000",
      apiId: `local-${route.api}`,
      resourceId: route.id,
      resourcePath: route.path,
      httpMethod: route.method,
      path: `/${options.stage}${request.path}`,
      stage: options.stage,
      protocol: "HTTP/1.1",
      requestId,
      requestTimeEpoch: Date.now(),
      authorizer: { ...authorized.context, principalId: authorized.principalId },
      identity: callerIdentity(request),
    },
  };
}

function callerIdentity(request: GatewayRequest): APIGatewayProxyEvent["requestContext"]["identity"] {
  return {
    sourceIp: request.sourceIp,
    userAgent: single(request.headers, "user-agent") ?? null,
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    user: null,
    userArn: null,
  };
}

/** Runs the route's handler within the function timeout; its answer, as the gateway sends it. */
async function invokeRoute(
  handler: HttpHandler,
  event: APIGatewayProxyEvent,
  route: RouteDefinition,
  timeoutMs: number,
  { requestId, seen }: Passage,
): Promise<GatewayResponse> {
  let result: APIGatewayProxyResult;
  try {
    result = await withTimeout(handler(event, localLambdaContext(route.id, timeoutMs)), timeoutMs);
  } catch (error) {
    return failure(error, requestId, seen);
  }
  if (typeof result?.statusCode !== "number" || typeof result.body !== "string") {
    return failure(new Error("malformed Lambda proxy response"), requestId, seen);
  }
  const responseHeaders: Record<string, string> = { "x-request-id": requestId };
  for (const [name, value] of Object.entries(result.headers ?? {}))
    responseHeaders[name.toLowerCase()] = String(value);
  return { status: result.statusCode, headers: responseHeaders, body: result.body };
}

function serveDocument(document: GatewayDocument, { request, requestId, seen }: Passage): GatewayResponse {
  seen.resourcePath = request.path;
  if (!DOCUMENT_METHODS.includes(request.method))
    return gatewayError(new MethodNotAllowedError(DOCUMENT_METHODS), requestId);
  return documentResponse(document, requestId);
}

export function createGateway(
  options: GatewayOptions,
): (request: GatewayRequest) => Promise<GatewayResponse> {
  const match = routeMatcher(options.routes);
  const throttler = new UsagePlanThrottler(options.now);
  const authorizer = cachedAuthorizer(options.authorizer, { ttlMs: options.authorizerCacheTtlMs ?? 0 });
  const timeoutMs = options.functionTimeoutMs ?? 10_000;

  const serve = async (passage: Passage): Promise<GatewayResponse> => {
    const { request, requestId, seen } = passage;
    const document = options.documents?.get(request.path);
    if (document) return serveDocument(document, passage);
    const matched = match(request.method, request.path);
    if (matched.kind === "not_found") return gatewayError(new NotFoundError(), requestId);
    if (matched.kind === "method_not_allowed") {
      seen.resourcePath = matched.resourcePath;
      return gatewayError(new MethodNotAllowedError(matched.allowed), requestId);
    }
    const { route } = matched;
    seen.resourcePath = route.path;
    if (request.bodyTooLarge) {
      return gatewayError(
        new InvalidInputError(`request body is larger than ${GATEWAY_MAX_BODY_BYTES} bytes`),
        requestId,
      );
    }
    const authorization = await authorize(options, authorizer, route, passage);
    if ("refused" in authorization) return authorization.refused;
    const refused = await throttle(options, throttler, authorization.authorized, passage);
    if (refused) return refused;
    const handler = options.handlers.get(route.id);
    if (!handler) return failure(new Error(`no handler loaded for ${route.id}`), requestId, seen);
    const event = proxyEvent(options, matched, passage, authorization.authorized);
    return invokeRoute(handler, event, route, timeoutMs, passage);
  };
  return async (request) => {
    const requestId = randomUUID();
    const started = performance.now();
    const seen: LoggedRequest = {};
    const response = await serve({ request, requestId, seen });
    options.accessLog?.({
      requestId,
      httpMethod: request.method,
      status: response.status,
      latencyMs: Math.round(performance.now() - started),
      ...seen,
    });
    return response;
  };
}
