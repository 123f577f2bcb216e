/** What the shared pipeline adds to the Lambda context for the rest of a request. */
import type { Context } from "aws-lambda";
import type { Principal } from "../auth/principal.js";
import type { Logger } from "../observability/logger.js";

export interface HttpContext extends Context {
  /** API Gateway's request ID (or a fresh UUID when invoked without one); sent as `x-request-id`. */
  requestId: string;
  /** Logger carrying this request's ID and route. */
  log: Logger;
  /** `performance.now()` when the pipeline started, for the access log's duration. */
  startedAt: number;
  /** The caller, set once the route's operation is authorized. */
  principal?: Principal;
}
