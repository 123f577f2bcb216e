/**
 * The whole service on this machine: an embedded DynamoDB engine with the tables of
 * lib/store/tables.ts, the keys loaded into the keys table, and the real authorizer and route
 * handlers behind a local gateway. `npm start` and the HTTP tests both start it through here.
 */
import { fileURLToPath } from "node:url";
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { print } from "../cli/terminal-text.js";
import type { DataFile } from "../directory/source.js";
import type { HttpHandler } from "../http/pipeline.js";
import { JSON_CONTENT_TYPE } from "../http/response.js";
import type { KeyRecord } from "../keys/key-record.js";
import { keyScopes } from "../keys/key-scopes.js";
import { keepScopes } from "../load/keep-scopes.js";
import { loadData } from "../load/load-file.js";
import { logger } from "../observability/logger.js";
import { openApiDocument } from "../openapi/document.js";
import { AUTHORIZER, ROUTES, type RouteDefinition, type RouteTable, routesForStage } from "../routes.js";
import type { Stage } from "../stages.js";
import { createTables } from "../store/create-tables.js";
import { dynamoDirectory } from "../store/dynamo/index.js";
import { documentClientFor } from "../store/dynamo-client.js";
import { keysRepository } from "../store/keys-repository.js";
import { TABLES, type TableId } from "../store/tables.js";
import { LOCAL_TABLE_NAMES } from "./config.js";
import { type Engine, startDynalite } from "./engines.js";
import { createGateway, type GatewayDocument } from "./gateway.js";
import { serveGateway } from "./http-server.js";
import { referencePageDocuments } from "./reference-page.js";
import { accessLine, refusedLine } from "./request-lines.js";
import { keysTableUsagePlans } from "./usage-plans.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The local gateway's authorizer cache (API Gateway's is 60 s or more): long enough that a burst on
 * one key asks the keys table about once a second, short enough that a revoked key is refused at once.
 */
const LOCAL_AUTHORIZER_CACHE_TTL_MS = 1_000;

export interface LocalServiceOptions {
  port: number;
  stage: Stage;
  keys: readonly KeyRecord[];
  /** Directory records to seed the tables with, through the same loader as `npm run load`. */
  data?: DataFile;
  /** Defaults to a fresh in-process dynalite, stopped with the service. */
  engine?: Engine;
  /** Physical table names (default LOCAL_TABLE_NAMES); tests sharing one engine use their own. */
  tableNames?: Readonly<Record<TableId, string>>;
  functionTimeoutMs?: number;
  now?: () => number;
  /** The route table to serve (default ROUTES; tests add routes to a copy). */
  routes?: RouteTable;
  /** Per request: JSON log lines (default), or one short line on stdout for a terminal. */
  requestLog?: "json" | "lines";
}

export interface LocalService {
  url: string;
  engine: Engine;
  stop(): Promise<void>;
}

/**
 * Handlers read their configuration from the environment at import, as on Lambda; a process
 * therefore serves one engine at a time.
 */
function configureHandlerEnvironment(
  stage: Stage,
  engine: Engine,
  names: Readonly<Record<TableId, string>>,
): void {
  process.env.STAGE = stage;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = engine.endpoint;
  process.env.AWS_REGION ??= "local";
  process.env.AWS_ACCESS_KEY_ID ??= "local";
  process.env.AWS_SECRET_ACCESS_KEY ??= "local";
  // EMF records are for CloudWatch; locally the access log says the same (set it to false to see them).
  process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
  for (const table of Object.values(TABLES)) process.env[table.envVar] = names[table.id];
}

async function importHandler<T>(entry: string): Promise<T> {
  const module = (await import(`${REPO_ROOT}${entry}`)) as { handler: T };
  return module.handler;
}

/** Each route's handler, imported from its entry as Lambda would load it. */
export async function loadRouteHandlers(
  routes: readonly RouteDefinition[],
): Promise<Map<string, HttpHandler>> {
  const handlers = new Map<string, HttpHandler>();
  for (const route of routes) handlers.set(route.id, await importHandler<HttpHandler>(route.entry));
  return handlers;
}

/** GET /: where a newcomer goes next (the routes themselves need a key). */
const ROOT_DOCUMENT: GatewayDocument = {
  contentType: JSON_CONTENT_TYPE,
  body: JSON.stringify({
    service: "Partner Directory Search",
    docs: "/docs",
    openapi: "/openapi.json",
    message: "The API reference is at /docs, the OpenAPI document at /openapi.json.",
  }),
};

/** GET /openapi.json about this server: made at the first request, once its bound URL is known. */
function servedOpenApiDocument(
  stage: Stage,
  table: RouteTable,
): { document: GatewayDocument; listeningAt(url: string): void } {
  let serverUrl: string | undefined;
  let text: string | undefined;
  return {
    document: {
      contentType: JSON_CONTENT_TYPE,
      body: () => {
        if (!serverUrl) throw new Error("no document before the server listens");
        text ??= JSON.stringify(openApiDocument({ stage, serverUrl }, table), null, 2);
        return text;
      },
    },
    listeningAt(url) {
      serverUrl = url;
    },
  };
}

export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const engine = options.engine ?? (await startDynalite());
  const ownsEngine = options.engine === undefined;
  try {
    const client = engine.client();
    const names = options.tableNames ?? LOCAL_TABLE_NAMES;
    await createTables(client, names);
    const keys = keysRepository(documentClientFor(client), names.keys);
    await Promise.all(options.keys.map((record) => keys.put(record)));
    // Nothing reads the directory yet: no grace is needed before removing superseded versions.
    const directory = dynamoDirectory(documentClientFor(client), names.directory, { writer: { graceMs: 0 } });
    if (options.data) await loadData(options.data, directory);
    await keepScopes(directory, keyScopes(options.keys));

    configureHandlerEnvironment(options.stage, engine, names);
    const table = options.routes ?? ROUTES;
    const routes = routesForStage(options.stage, table);
    const handlers = await loadRouteHandlers(routes);
    const authorizer = await importHandler<
      (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>
    >(AUTHORIZER.entry);

    const openApi = servedOpenApiDocument(options.stage, table);
    const lines = options.requestLog === "lines";
    const gateway = createGateway({
      stage: options.stage,
      routes,
      handlers,
      authorizer,
      authorizerCacheTtlMs: LOCAL_AUTHORIZER_CACHE_TTL_MS,
      // Read from the keys table, so keys issued or revoked while this server runs count at once.
      throttleFor: keysTableUsagePlans(keys),
      accessLog: (entry) => (lines ? print(accessLine(entry)) : logger.info("api access", { ...entry })),
      documents: new Map([
        ["/", ROOT_DOCUMENT],
        ["/openapi.json", openApi.document],
        ...referencePageDocuments(),
      ]),
      ...(options.functionTimeoutMs ? { functionTimeoutMs: options.functionTimeoutMs } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    const server = await serveGateway(gateway, options.port, {
      onRefused: (entry) =>
        lines ? print(refusedLine(entry)) : logger.info("request refused", { ...entry }),
    });
    openApi.listeningAt(server.url);
    return {
      url: server.url,
      engine,
      async stop() {
        await server.close();
        if (ownsEngine) await engine.stop();
      },
    };
  } catch (error) {
    if (ownsEngine) await engine.stop();
    throw error;
  }
}
