/**
 * Structured JSON logs through Powertools for AWS Lambda. Each request logs through a child
 * logger that carries its request ID and route: the local server runs many requests in one
 * process, so per-request keys must not live on the shared instance.
 */
import { Logger } from "@aws-lambda-powertools/logger";

const SERVICE_NAME = "partner-directory";

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME });

export type { Logger };

/** Made per request, so it logs at the service logger's level of the moment. */
export function requestLogger(fields: { requestId: string; route?: string }): Logger {
  return logger.createChild({ persistentKeys: fields });
}
