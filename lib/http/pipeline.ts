/**
 * The shared HTTP pipeline: every route handler is `httpRoute(routeId, run)`, built from the
 * route's table entry (lib/routes.ts). It maps every error in one place, checks the route's
 * operation against the key, validates the path parameters with the route's schema, and for routes
 * with a body enforces the size limit, parses JSON and validates it with the route's strict schema
 * before `run` sees it. Every answer carries the request's ID; one access-log line tells its end.
 *
 * The middlewares share nothing but the request's context (./request-context.ts), so their order
 * decides one thing only: which refusal wins when a request breaks several rules. It is the
 * contract's: one Authorization header, the key's operation, then the path, then the body (size
 * and UTF-8, JSON, schema).
 */
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import middy from "@middy/core";
import httpHeaderNormalizer from "@middy/http-header-normalizer";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type * as core from "zod/v4/core";
import type { Principal } from "../auth/principal.js";
import { type Logger, logger } from "../observability/logger.js";
import { requestMetrics } from "../observability/metrics.js";
import { withDynamoWork } from "../observability/request-capacity.js";
import { ROUTES, type RouteDefinition, type RouteId, type RouteOf, type RouteTable } from "../routes.js";
import { accessLog } from "./middleware/access-log.js";
import { type AuthorizedContext, authorizeOperation } from "./middleware/authorize-operation.js";
import { bodyLimit } from "./middleware/body-limit.js";
import { errorResponse } from "./middleware/error-response.js";
import { jsonBody } from "./middleware/json-body.js";
import { requestOutcome } from "./middleware/request-outcome.js";
import { responseSizeGuard } from "./middleware/response-size.js";
import { singleAuthorization } from "./middleware/single-authorization.js";
import { validateBody } from "./middleware/validate-body.js";
import { validatePathParameters } from "./middleware/validate-path-parameters.js";
import { requestContext, requestLog } from "./request-context.js";
import { jsonResponse } from "./response.js";

/**
 * Half a second before Lambda would kill the invocation, middy gives up on the handler and the
 * error mapping answers 500 `internal_error` (logged): a slow dependency never becomes a hang or
 * a gateway 502.
 */
const DEADLINE_MARGIN_MS = 500;

/** The validated body of a route: its schema's output; `undefined` for a route without a body. */
type RouteBody<Route extends RouteDefinition> = Route extends { body: { schema: infer S } }
  ? core.output<S>
  : undefined;
/** The validated path parameters of a route; none for a route without any. */
type RoutePathParameters<Route extends RouteDefinition> = Route extends {
  pathParameters: { schema: infer S };
}
  ? core.output<S>
  : Record<string, never>;
/** What a route's use case answers: its response schema's input (the document's 200 body). */
type RouteAnswer<Route extends RouteDefinition> = core.input<Route["response"]>;

export interface RouteRequest<Route extends RouteDefinition> {
  readonly body: RouteBody<Route>;
  readonly pathParameters: RoutePathParameters<Route>;
  readonly principal: Principal;
  readonly requestId: string;
  readonly log: Logger;
}

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

type RouteRun<Route extends RouteDefinition> = (request: RouteRequest<Route>) => Promise<RouteAnswer<Route>>;

/** The handler of a route of the table: `export const handler = httpRoute("persons-search", …)`. */
export function httpRoute<Id extends RouteId>(routeId: Id, run: RouteRun<RouteOf<Id>>): HttpHandler {
  return httpRouteOf(ROUTES, routeId, run);
}

/** The handler of a route of any table (tests add routes to a copy of ROUTES). */
export function httpRouteOf<Table extends RouteTable, Id extends Table[number]["id"]>(
  table: Table,
  routeId: Id,
  run: RouteRun<Extract<Table[number], { readonly id: Id }>>,
): HttpHandler {
  const route = table.find(
    (candidate): candidate is Extract<Table[number], { readonly id: Id }> => candidate.id === routeId,
  );
  if (!route) throw new Error(`unknown route ${routeId}`);
  return routeHandler(route, run);
}

/** The body middlewares, in the order each needs: the limit on the raw text, then parse, then validate. */
function bodyMiddlewares(route: RouteDefinition) {
  return route.body ? [bodyLimit(), jsonBody(), validateBody({ schema: route.body.schema })] : [];
}

/** The handler of any route definition (a table's, or a test's own). */
export function routeHandler<Route extends RouteDefinition>(route: Route, run: RouteRun<Route>): HttpHandler {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>({
    timeoutEarlyInMillis: DEADLINE_MARGIN_MS,
    ...accessLog({ resourcePath: route.path, route: route.id }),
  })
    // First, so every line of the request, the error mapping's included, has the Lambda context.
    .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
    // Before the error mapping: its after and onError run after it, on the final status.
    .use(requestMetrics(requestOutcome(route.id)))
    .use(errorResponse({ route: route.id }))
    .use(responseSizeGuard({ route: route.id }))
    .use(singleAuthorization())
    .use(httpHeaderNormalizer())
    .use(authorizeOperation({ operation: route.operation }))
    .use(route.pathParameters ? [validatePathParameters(route.pathParameters)] : [])
    .use(bodyMiddlewares(route))
    .handler(async (event, context) => {
      const { requestId, work } = requestContext(event);
      const answer = await withDynamoWork(work, () =>
        run({
          // The middlewares above replaced both with their schema's output.
          body: event.body as RouteBody<Route>,
          pathParameters: (event.pathParameters ?? {}) as RoutePathParameters<Route>,
          principal: context.principal,
          requestId,
          log: requestLog(event, route.id),
        }),
      );
      return jsonResponse(200, answer, { "x-request-id": requestId });
    });
  // middy types the context its handler is called with as what the middlewares will have added
  // (the principal); Lambda calls it with a plain Context, which authorizeOperation completes.
  return (event, context) => handler(event, context as AuthorizedContext);
}
