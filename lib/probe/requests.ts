/**
 * The probe's HTTP cases, each a handful of hostile requests with the status and error body the
 * contract (docs/decisions.md) promises: names that expand under NFKC, a long name, two
 * Authorization headers, bytes that are not UTF-8, key text sent as a company id, and a burst on
 * one key while another keeps asking.
 */
import { callerText } from "../observability/caller-text.js";
import { errorBody, type ProbeRequest, sendTimed, type TimedAnswer } from "./http.js";
import { ANSWER_LIMIT_MS, type Answer, type CaseResult, disguisedKeys, keysFoundIn } from "./verdict.js";

/** The keys the probe sends (lib/load-test/workload.ts): all companies, the second one, the first one throttled. */
interface ProbeKeys {
  readonly generous: string;
  readonly narrow: string;
  readonly throttled: string;
  readonly unknown: string;
}

export interface ProbeContext {
  readonly url: string;
  readonly keys: ProbeKeys;
  /** The throttled key's company, then the narrow key's. */
  readonly companies: readonly [string, string];
  /** Everything the server wrote so far; undefined when its output cannot be read (a running server). */
  readonly serverOutput: (() => string) | undefined;
}

const MIB = 1_048_576;
const BURST = 500;
const EMPLOYEES = "/v1/employees/search";
const PERSONS = "/v1/persons/search";

/** What else to check of an answer beside its status; a problem, or undefined. */
type Check = (answer: TimedAnswer) => string | undefined;

function timedAnswer(label: string, answer: TimedAnswer, expected: readonly number[], check?: Check): Answer {
  const problem = answer.failure ?? (expected.includes(answer.status) ? check?.(answer) : undefined);
  return {
    label,
    status: answer.status,
    expected,
    ms: answer.ms,
    limitMs: ANSWER_LIMIT_MS,
    ...(problem === undefined ? {} : { problem: callerText(problem) }),
  };
}

/** The error body `{"error": code}`, and a message that `message` accepts when given. */
function errorIs(code: string, message?: (text: string) => boolean, describe?: string): Check {
  return (answer) => {
    const body = errorBody(answer.body);
    if (typeof body === "string") return body;
    if (body.error !== code) return `error ${JSON.stringify(body.error)}, expected ${JSON.stringify(code)}`;
    if (message && !(typeof body.message === "string" && message(body.message)))
      return `message ${JSON.stringify(body.message)}, expected ${describe}`;
    return undefined;
  };
}

const namesField = (field: string) =>
  errorIs("invalid_input", (text) => text.startsWith(`${field}: `), `one naming ${field}`);

const bearer = (key: string) => ["authorization", `Bearer ${key}`] as const;
const JSON_TYPE = ["content-type", "application/json"] as const;

function post(path: string, body: Buffer | string, key: string): ProbeRequest {
  return {
    method: "POST",
    path,
    headers: [bearer(key), JSON_TYPE],
    body: typeof body === "string" ? Buffer.from(body, "utf8") : body,
  };
}

async function timedCase(
  name: string,
  run: (answers: Answer[], problems: string[], skipped: string[]) => Promise<void>,
): Promise<CaseResult> {
  const answers: Answer[] = [];
  const problems: string[] = [];
  const skipped: string[] = [];
  const started = performance.now();
  await run(answers, problems, skipped);
  return { name, answers, problems, ms: performance.now() - started, ...(skipped.length ? { skipped } : {}) };
}

/** 1. firstName of 340,000 × U+FDFA (18 characters each after NFKC), a body just under 1 MiB. */
export function expandingNames(context: ProbeContext): Promise<CaseResult> {
  return timedCase("340,000 × U+FDFA as firstName: 400 naming the field", async (answers, problems) => {
    const firstName = "\uFDFA".repeat(340_000);
    const [company] = context.companies;
    for (const [label, path, body] of [
      ["employees search", EMPLOYEES, { companyId: company, firstName }],
      ["persons search", PERSONS, { firstName }],
    ] as const) {
      const bytes = Buffer.from(JSON.stringify(body), "utf8");
      if (bytes.length >= MIB) problems.push(`${label}: the body is ${bytes.length} bytes, not under 1 MiB`);
      const answer = await sendTimed(context.url, post(path, bytes, context.keys.generous));
      answers.push(timedAnswer(`${label}, ${bytes.length} bytes`, answer, [400], namesField("firstName")));
    }
  });
}

/** 2. A 5,000-character lastName. */
export function longName(context: ProbeContext): Promise<CaseResult> {
  return timedCase("5,000-character lastName: 400 naming the field", async (answers) => {
    const lastName = "x".repeat(5_000);
    const [company] = context.companies;
    for (const [label, path, body] of [
      ["employees search", EMPLOYEES, { companyId: company, lastName }],
      ["persons search", PERSONS, { lastName }],
    ] as const) {
      const answer = await sendTimed(context.url, post(path, JSON.stringify(body), context.keys.generous));
      answers.push(timedAnswer(label, answer, [400], namesField("lastName")));
    }
  });
}

/** 3. Two Authorization headers, in either order: 401; the valid one alone: 200. */
export function twoAuthorizations(context: ProbeContext): Promise<CaseResult> {
  return timedCase("two Authorization headers: 401 in either order", async (answers) => {
    const valid = `Bearer ${context.keys.generous}`;
    const junk = "Bearer junk";
    for (const [label, values, expected] of [
      ["junk, then the valid key", [junk, valid], 401],
      ["the valid key, then junk", [valid, junk], 401],
      ["the valid key twice", [valid, valid], 401],
      ["the valid key alone (control)", [valid], 200],
    ] as const) {
      const answer = await sendTimed(context.url, {
        method: "POST",
        path: PERSONS,
        headers: [...values.map((value) => ["authorization", value] as const), JSON_TYPE],
        body: Buffer.from("{}"),
      });
      answers.push(
        timedAnswer(label, answer, [expected], expected === 401 ? errorIs("invalid_api_key") : undefined),
      );
    }
  });
}

/** 4. Bodies that are not UTF-8: 0xFF inside a JSON string, and 400 KB of 0xFF (1.2 MB once decoded). */
export function notUtf8(context: ProbeContext): Promise<CaseResult> {
  return timedCase("bodies not UTF-8: 400 invalid_input, not 413", async (answers) => {
    const [company] = context.companies;
    // latin1: U+00FF goes out as the one byte 0xFF, which no UTF-8 text holds.
    const inString = (json: string) => Buffer.from(json, "latin1");
    const invalid = errorIs(
      "invalid_input",
      (text) => text.includes("UTF-8"),
      "one saying the body is not UTF-8",
    );
    for (const [label, path, body] of [
      [
        "employees search, 0xFF in a string",
        EMPLOYEES,
        inString(`{"companyId":"${company}","firstName":"a\u00ffb"}`),
      ],
      ["persons search, 0xFF in a string", PERSONS, inString('{"firstName":"a\u00ffb"}')],
      ["employees search, 400 KB of 0xFF", EMPLOYEES, Buffer.alloc(400_000, 0xff)],
      ["persons search, 400 KB of 0xFF", PERSONS, Buffer.alloc(400_000, 0xff)],
    ] as const) {
      const answer = await sendTimed(context.url, post(path, body, context.keys.generous));
      answers.push(timedAnswer(label, answer, [400], invalid));
    }
  });
}

/** The server's output a moment from now: what it logs about an answer may follow the answer. */
async function settledOutput(read: () => string): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return read();
}

/** 5. A key's text with its prefix altered, as a company id: 403, and none of it in the server's output. */
export function keyAsCompanyId(context: ProbeContext): Promise<CaseResult> {
  return timedCase("key text as a company id: 403, never logged", async (answers, problems, skipped) => {
    const { generous } = context.keys;
    for (const { name, text } of disguisedKeys(generous)) {
      for (const [route, request] of [
        ["employees search", post(EMPLOYEES, JSON.stringify({ companyId: text }), generous)],
        ["persons search", post(PERSONS, JSON.stringify({ companyId: text }), generous)],
        ["greeting", { method: "GET", path: `/v1/companies/${text}/hello`, headers: [bearer(generous)] }],
      ] as const) {
        const answer = await sendTimed(context.url, request);
        answers.push(timedAnswer(`${route}, ${name}`, answer, [403], errorIs("forbidden")));
      }
    }
    if (context.serverOutput === undefined) {
      skipped.push("the server's output: a running server's output cannot be read");
      return;
    }
    const output = await settledOutput(context.serverOutput);
    if (keysFoundIn(output, { generous }).length > 0)
      problems.push("the server's output holds text of the key sent as a company id");
  });
}

/**
 * 6. 500 greetings at once on the throttled key (5/s, burst 10): only 200 and 429, each 429 with
 * Retry-After; meanwhile the narrow key's greetings answer 200.
 */
export function burst(context: ProbeContext): Promise<CaseResult> {
  return timedCase(
    `${BURST} requests at once on one key: 200 or 429; another key 200`,
    async (answers, problems) => {
      const [throttledCompany, narrowCompany] = context.companies;
      const hello = (key: string, company: string): ProbeRequest => ({
        method: "GET",
        path: `/v1/companies/${company}/hello`,
        headers: [bearer(key)],
      });
      const throttled = Array.from({ length: BURST }, () =>
        sendTimed(context.url, hello(context.keys.throttled, throttledCompany)),
      );
      const others = Array.from({ length: 5 }, () =>
        sendTimed(context.url, hello(context.keys.narrow, narrowCompany)),
      );
      const retryAfter: Check = (answer) => {
        if (answer.status !== 429) return undefined;
        const seconds = Number(answer.headers["retry-after"]);
        return seconds > 0 ? errorIs("rate_limited")(answer) : "429 without a positive Retry-After";
      };
      const burstAnswers = await Promise.all(throttled);
      burstAnswers.forEach((answer, index) => {
        answers.push(timedAnswer(`throttled key, request ${index + 1}`, answer, [200, 429], retryAfter));
      });
      (await Promise.all(others)).forEach((answer, index) => {
        answers.push(timedAnswer(`narrow key during the burst, request ${index + 1}`, answer, [200]));
      });
      const limited = burstAnswers.filter((answer) => answer.status === 429).length;
      if (limited === 0)
        problems.push(`no 429 in ${BURST} requests on a key of burst 10: the throttle did not hold`);
      if (limited === BURST)
        problems.push("every request of the burst was refused: the key's burst allows 10");
    },
  );
}
