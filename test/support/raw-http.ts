/**
 * Byte-level HTTP for the hardening tests: node:http with raw header pairs (duplicates kept, values
 * sent as the bytes given) and a Buffer body, so invalid UTF-8 and duplicate JSON keys reach the
 * local server exactly as sent; bytes written straight to a socket, for requests no HTTP client
 * would send. Plus a scan of every table, to prove a request changed nothing.
 */
import { request } from "node:http";
import { connect } from "node:net";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { headerLines } from "../../lib/probe/http.js";
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
  const headers = headerLines(raw.headers);
  headers["content-length"] = String(raw.body.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: raw.method, path: raw.path, headers }, (res) => {
      const received: Buffer[] = [];
      res.on("data", (data: Buffer) => received.push(data));
      res.on("end", () => {
        const seen = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") seen.set(name, value);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: seen,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(received).toString("utf8"),
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(raw.body);
  });
}

/** A response read off a socket: status, headers (names lower-cased) and body. */
export interface SocketResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** The first complete response in `buffer` and its length in bytes, or undefined when incomplete. */
function parseResponse(buffer: Buffer): { response: SocketResponse; length: number } | undefined {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const length = end + 4 + Number(headers.get("content-length") ?? 0);
  if (buffer.length < length) return undefined;
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  return { response: { status, headers, body: buffer.subarray(end + 4, length).toString("utf8") }, length };
}

/**
 * Writes each of `requests` (latin1 text, as is) on one connection, the next once the answer to the
 * previous one is complete, and resolves with every answer once the server closes the connection.
 * Each answer must carry a content-length. A reset after the answers counts as the close.
 */
export function exchange(port: number, requests: readonly string[]): Promise<SocketResponse[]> {
  return new Promise((resolve, reject) => {
    const responses: SocketResponse[] = [];
    let buffer = Buffer.alloc(0);
    let next = 0;
    const writeNext = () => {
      const text = requests[next++];
      if (text !== undefined) socket.write(text, "latin1");
    };
    const socket = connect(port, "127.0.0.1", writeNext);
    socket.on("data", (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (let parsed = parseResponse(buffer); parsed; parsed = parseResponse(buffer)) {
        responses.push(parsed.response);
        buffer = buffer.subarray(parsed.length);
        writeNext();
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (buffer.length > 0) reject(new Error(`incomplete answer: ${buffer.toString("latin1")}`));
      else resolve(responses);
    });
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
