/**
 * A typed client for the Partner Directory Search Service: one method per route, async iterators
 * that page through a whole search, bounded retries on 429 and 5xx. It uses only the global
 * `fetch` (Node 18.17+, browsers, Deno, Bun) and type-only imports from the contract's schemas
 * (contract.ts), so it bundles to a few kilobytes with no AWS SDK and no Zod.
 */
import type { RoutePath } from "../routes.js";
import type {
  Employee,
  EmployeesSearchRequest,
  EmployeesSearchResponse,
  Greeting,
  KeyDescription,
  Person,
  PersonsSearchRequest,
  PersonsSearchResponse,
} from "./contract.js";
import { errorFromResponse, PartnerDirectoryError } from "./errors.js";
import {
  type AttemptFailure,
  type RetryOptions,
  type RetryPolicy,
  retryDelayMs,
  retryPolicy,
} from "./retry-policy.js";

// The route table's paths (type-only: the client bundles none of it); one that changes there fails
// to compile here.
const PERSONS_SEARCH: RoutePath<"persons-search"> = "/v1/persons/search";
const EMPLOYEES_SEARCH: RoutePath<"employees-search"> = "/v1/employees/search";
const COMPANIES_HELLO: RoutePath<"companies-hello"> = "/v1/companies/{companyId}/hello";
const KEY_DESCRIBE: RoutePath<"key-describe"> = "/v1/key";

/** What the client reports after each answer it gets (for your logs and traces; it never logs itself). */
export interface ResponseInfo {
  method: string;
  path: string;
  status: number;
  requestId: string | undefined;
  attempt: number;
  durationMs: number;
}

export interface RetryInfo {
  method: string;
  path: string;
  /** The attempt that failed (from 1). */
  attempt: number;
  delayMs: number;
  /** The failed attempt's error: a PartnerDirectoryError, or the network error or timeout. */
  error: unknown;
}

export interface PartnerDirectoryClientOptions {
  /** `{base_url}` of the stage: the searches. */
  baseUrl: string;
  /** `{hello_base_url}` of the stage: the greeting and the key. Defaults to baseUrl (as on the local server). */
  helloBaseUrl?: string;
  /** Your partner key. Kept in a private field; never logged, never put in an error. */
  apiKey: string;
  retry?: RetryOptions;
  /** Per attempt; API Gateway itself answers within 29 s. Default 30 s. */
  timeoutMs?: number;
  onResponse?: (info: ResponseInfo) => void;
  onRetry?: (info: RetryInfo) => void;
  /** For tests: stand-ins for fetch, the wait between attempts and the jitter's randomness. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface CallOptions {
  /** Cancels the call, its retries and waits included. A cancelled call is not retried. */
  signal?: AbortSignal;
}

/** Printable ASCII, no spaces: anything else could not be sent in a header (and would be echoed by fetch's error). */
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export class PartnerDirectoryClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #helloBaseUrl: string;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #onResponse: ((info: ResponseInfo) => void) | undefined;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(options: PartnerDirectoryClientOptions) {
    if (typeof options.apiKey !== "string" || !SENDABLE_KEY.test(options.apiKey))
      throw new TypeError("apiKey must be a non-empty string of printable ASCII without spaces");
    for (const [name, url] of [
      ["baseUrl", options.baseUrl],
      ["helloBaseUrl", options.helloBaseUrl ?? options.baseUrl],
    ] as const) {
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
        throw new TypeError(`${name} must be an http(s) URL`);
    }
    this.#apiKey = options.apiKey;
    this.#baseUrl = trimSlash(options.baseUrl);
    this.#helloBaseUrl = trimSlash(options.helloBaseUrl ?? options.baseUrl);
    this.#retry = retryPolicy(options.retry);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#sleep = options.sleep ?? sleepFor;
    this.#random = options.random ?? Math.random;
    this.#onResponse = options.onResponse;
    this.#onRetry = options.onRetry;
  }

  /** `GET /v1/companies/{companyId}/hello`: checks connectivity, the key and access to a company. */
  hello(companyId: string, options: CallOptions = {}): Promise<Greeting> {
    const path = COMPANIES_HELLO.replace("{companyId}", encodeURIComponent(companyId));
    return this.#call<Greeting>("GET", this.#helloBaseUrl, path, undefined, options);
  }

  /** `GET /v1/key`: this key's id, partner, operations, companies, tier and throttle. */
  key(options: CallOptions = {}): Promise<KeyDescription> {
    return this.#call<KeyDescription>("GET", this.#helloBaseUrl, KEY_DESCRIBE, undefined, options);
  }

  /** `POST /v1/persons/search` (draft): one page of persons. */
  searchPersons(
    request: PersonsSearchRequest = {},
    options: CallOptions = {},
  ): Promise<PersonsSearchResponse> {
    return this.#call("POST", this.#baseUrl, PERSONS_SEARCH, request, options);
  }

  /** `POST /v1/employees/search` (draft): one page of one company's employee records. */
  searchEmployees(
    request: EmployeesSearchRequest,
    options: CallOptions = {},
  ): Promise<EmployeesSearchResponse> {
    return this.#call("POST", this.#baseUrl, EMPLOYEES_SEARCH, request, options);
  }

  /** Every person matching `request`, page after page (`limit` sets the page size), from `offset` on. */
  allPersons(request: PersonsSearchRequest = {}, options: CallOptions = {}): AsyncGenerator<Person> {
    return this.#pages(
      request,
      (page) => this.searchPersons(page, options),
      (answer) => answer.persons,
    );
  }

  /** Every employee record matching `request`, page after page. */
  allEmployees(request: EmployeesSearchRequest, options: CallOptions = {}): AsyncGenerator<Employee> {
    return this.#pages(
      request,
      (page) => this.searchEmployees(page, options),
      (answer) => answer.employees,
    );
  }

  /**
   * Offset paging until `total` is reached. Pages read live data (docs/partners.md#paging); an
   * empty page also ends the walk, so records removed meanwhile cannot make it loop.
   */
  async *#pages<Request extends { offset?: number }, Answer extends { pagination: { total: number } }, Item>(
    request: Request,
    search: (request: Request) => Promise<Answer>,
    items: (answer: Answer) => Item[],
  ): AsyncGenerator<Item> {
    let offset = request.offset ?? 0;
    for (;;) {
      const answer = await search({ ...request, offset });
      const page = items(answer);
      yield* page;
      offset += page.length;
      if (page.length === 0 || offset >= answer.pagination.total) return;
    }
  }

  async #call<T>(
    method: "GET" | "POST",
    baseUrl: string,
    path: string,
    body: unknown,
    options: CallOptions,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt<T>(method, baseUrl, path, body, options, attempt);
      if ("answer" in outcome) return outcome.answer;
      const delayMs = retryDelayMs(this.#retry, attempt, outcome.failure, this.#random);
      if (delayMs === undefined) throw outcome.error;
      this.#onRetry?.({ method, path, attempt, delayMs, error: outcome.error });
      await this.#sleep(delayMs, options.signal);
    }
  }

  /** One request: its answer, or why it failed (for the retry policy) and the error to throw. */
  async #attempt<T>(
    method: "GET" | "POST",
    baseUrl: string,
    path: string,
    body: unknown,
    options: CallOptions,
    attempt: number,
  ): Promise<{ answer: T } | { failure: AttemptFailure; error: unknown }> {
    const started = performance.now();
    try {
      const response = await this.#fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#apiKey}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(this.#timeoutMs)])
          : AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await response.text();
      const requestId = response.headers.get("x-request-id") ?? undefined;
      const durationMs = performance.now() - started;
      this.#onResponse?.({ method, path, status: response.status, requestId, attempt, durationMs });
      if (response.ok) return { answer: parseAnswer<T>(response.status, text, requestId) };
      const refused = errorFromResponse(response.status, response.headers, text);
      const failure = {
        kind: "status",
        status: refused.status,
        retryAfterSeconds: refused.retryAfterSeconds,
      } as const;
      return { failure, error: refused };
    } catch (thrown) {
      // The caller's own cancellation, and our own errors, end the call at once.
      if (options.signal?.aborted || thrown instanceof PartnerDirectoryError) throw thrown;
      return { failure: { kind: "network" }, error: thrown };
    }
  }
}

function parseAnswer<T>(status: number, text: string, requestId: string | undefined): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PartnerDirectoryError(
      status,
      "unexpected_response",
      `HTTP ${status} with a body that is not JSON`,
      requestId,
      undefined,
    );
  }
}
