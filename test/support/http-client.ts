/** A small HTTP client for a running local service: one request, its status, headers and JSON body. */
import { expectStandardHeaders } from "./contract.js";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function send(
  baseUrl: string,
  path: string,
  options: {
    method?: string;
    key?: string;
    authorization?: string;
    body?: string;
    contentType?: string;
  } = {},
): Promise<Answer> {
  const headers = new Headers();
  const authorization = options.authorization ?? (options.key ? `Bearer ${options.key}` : undefined);
  if (authorization !== undefined) headers.set("authorization", authorization);
  if (options.contentType) headers.set("content-type", options.contentType);
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? "GET",
    headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every answer, whatever its status: a JSON content type, a request id and the standard headers. */
export function expectServiceHeaders(answer: Answer): void {
  expect(answer.headers.get("x-request-id")).toMatch(UUID);
  expectStandardHeaders(answer.status, answer.headers);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
}
