/**
 * What `npm start` prints per request on a terminal: one short line (method, path template, status,
 * time, request id) instead of its JSON log lines, which stay for files and pipes. Like the access
 * log, it holds no caller text: a path that matches nothing is not shown.
 */
import type { GatewayAccessLogEntry } from "./gateway.js";
import type { ServeOptions } from "./http-server.js";

type RefusedEntry = Parameters<NonNullable<ServeOptions["onRefused"]>>[0];

export function accessLine(entry: GatewayAccessLogEntry): string {
  const { httpMethod, resourcePath, status, latencyMs, requestId } = entry;
  return `${httpMethod} ${resourcePath ?? "(no route)"} ${status} ${latencyMs} ms ${requestId}`;
}

export function refusedLine({ status, cause, requestId }: RefusedEntry): string {
  return `(refused before parsing: ${cause}) ${status} ${requestId}`;
}
