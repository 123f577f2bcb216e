/**
 * The shared HTTP pipeline: every route handler is `httpRoute(routeId, options, run)`. It gives
 * each request an ID and logger, maps every error in one place, checks the route's operation
 * against the key, and for routes with a body enforces the size limit, parses JSON and validates
 * it with the route's strict Zod schema before `run` sees it.
 */
import middy from "@middy/core";
import httpHeaderNormalizer from "@middy/http-header-normalizer";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type * as core from "zod/v4/core";
import type { Principal } from "../auth/principal.js";
import type { Logger } from "../observability/logger.js";
import { ROUTES, type RouteId } from "../routes.js";
import type { HttpContext } from "./context.js";
import { accessLog } from "./middleware/access-log.js";
import { authorizeOperation } from "./middleware/authorize-operation.js";
import { bodyLimit } from "./middleware/body-limit.js";
import { errorResponse } from "./middleware/error-response.js";
import { jsonBody } from "./middleware/json-body.js";
import { requestId } from "./middleware/request-id.js";
import { responseSizeGuard } from "./middleware/response-size.js";
import { validateBody } from "./middleware/validate-body.js";
import { jsonResponse } from "./response.js";

/**
 * Half a second before Lambda would kill the invocation, middy gives up on the handler and the
 * error mapping answers 500 `internal_error` (logged): a slow dependency never becomes a hang or
 * a gateway 502.
 */
export const DEADLINE_MARGIN_MS = 500;
const PLUGIN_CONFIG = { timeoutEarlyInMillis: DEADLINE_MARGIN_MS };

export interface RouteRequest<Body> {
  readonly body: Body;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
  readonly principal: Principal;
  readonly requestId: string;
  readonly log: Logger;
}

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface RouteOptions<Schema extends core.$ZodType> {
  /** Strict schema of the JSON body; routes without one take no body. */
  readonly body?: Schema;
}

export function httpRoute<Schema extends core.$ZodType = core.$ZodUndefined>(
  routeId: RouteId,
  options: RouteOptions<Schema>,
  run: (request: RouteRequest<core.output<Schema>>) => Promise<unknown>,
): HttpHandler {
  const route = ROUTES.find((candidate) => candidate.id === routeId);
  if (!route) throw new Error(`unknown route ${routeId}`);

  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>(
    async (event: APIGatewayProxyEvent, context: HttpContext) => {
      const { principal } = context;
      if (!principal) throw new Error("pipeline ran the handler without a principal");
      const result = await run({
        body: event.body as core.output<Schema>,
        pathParameters: event.pathParameters ?? {},
        principal,
        requestId: context.requestId,
        log: context.log,
      });
      return jsonResponse(200, result);
    },
    PLUGIN_CONFIG,
  )
    .use(requestId(route.id))
    .use(accessLog(route.path))
    .use(errorResponse())
    .use(responseSizeGuard())
    .use(httpHeaderNormalizer())
    .use(authorizeOperation(route.operation));

  if (options.body) {
    handler.use(bodyLimit()).use(jsonBody()).use(validateBody(options.body));
  }
  return handler as unknown as HttpHandler;
}
