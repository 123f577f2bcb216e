/**
 * Byte-level HTTP for the hardening tests: node:http with raw header pairs (duplicates kept, values
 * sent as the bytes given) and a Buffer body, so invalid UTF-8 and duplicate JSON keys reach the
 * local server exactly as sent. Plus a scan of every table, to prove a request changed nothing.
 */
import { request } from "node:http";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { documentClientFor } from "../../lib/store/dynamo-client.js";

export interface RawRequest {
  method: string;
  /** As written on the request line (already percent-encoded where needed). */
  path: string;
  /** Header name/value pairs; a name may repeat. Values are sent as latin1 bytes. */
  headers: readonly (readonly [string, string])[];
  body: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** Every header value as received, to look for secrets in. */
  rawHeaders: string[];
  body: string;
}

export function send(port: number, raw: RawRequest): Promise<RawResponse> {
  // An object (not raw pairs) so that node:http sees the content-length and sends no chunked
  // encoding beside it; a repeated name becomes a list, sent as repeated header lines.
  // No prototype: a header named `__proto__` is sent like any other.
  const headers: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of raw.headers) {
    const key = name.toLowerCase();
    const previous = headers[key];
    headers[key] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  headers["content-length"] = String(raw.body.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: raw.method, path: raw.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const seen = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") seen.set(name, value);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: seen,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(raw.body);
  });
}

/** UTF-8 text as the latin1 string whose bytes are that UTF-8: how node:http sends non-ASCII header bytes. */
export const utf8Bytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");

/** Every item of every table, sorted, as one string: equal strings mean equal tables. */
export async function scanTables(client: DynamoDBClient, tableNames: readonly string[]): Promise<string> {
  const documents = documentClientFor(client);
  const tables: Record<string, string[]> = {};
  for (const table of tableNames) {
    const items: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documents.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) items.push(JSON.stringify(item));
      start = page.LastEvaluatedKey;
    } while (start);
    tables[table] = items.sort();
  }
  return JSON.stringify(tables);
}
