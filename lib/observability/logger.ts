/**
 * Structured JSON logs through Powertools for AWS Lambda. Every handler's middy chain runs
 * Powertools' `injectLambdaContext` on the service logger, so lines carry `cold_start` and
 * `function_request_id`. Each request logs through a child logger that carries its request ID and
 * route: the local server runs many requests in one process, so per-request keys must not live on
 * the shared instance. Every string in a line passes `loggedString`: text no call site passed
 * through callerText still holds no character that hides or reorders the line.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { loggedString } from "./caller-text.js";

const SERVICE_NAME = "partner-directory";

/** The Lambda context a child receives from its parent (Powertools' own shape, with `coldStart`). */
type InheritedContext = Parameters<Logger["addContext"]>[0];

/**
 * A Logger whose children tell the cold start their parent recorded. Powertools' child asks its
 * own, fresh cold-start flag instead, so on AWS every request's child would say `cold_start: true`.
 */
class ServiceLogger extends Logger {
  override addContext(context: InheritedContext): void {
    if ("coldStart" in context && typeof context.coldStart === "boolean") this.coldStart = context.coldStart;
    super.addContext(context);
  }

  /**
   * Powertools calls this on every warm invocation; without a debug sample rate it only resets the
   * level to the environment's, undoing a level set at run time (tests raise it to read the lines).
   */
  override refreshSampleRateCalculation(): void {
    if (process.env.POWERTOOLS_LOGGER_SAMPLE_RATE) super.refreshSampleRateCalculation();
  }

  protected override createLogger(options?: ConstructorParameters<typeof Logger>[0]): Logger {
    return new ServiceLogger(options);
  }
}

export const logger: Logger = new ServiceLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  // Children are made with their parent's replacer.
  jsonReplacerFn: (_key, value) => (typeof value === "string" ? loggedString(value) : value),
});

export type { Logger };

/** Made per request, so it logs at the service logger's level, and with its Lambda context, of the moment. */
export function requestLogger(fields: { requestId: string; route?: string }): Logger {
  return logger.createChild({ persistentKeys: fields });
}
