import { generateApiKey, redactApiKeys } from "../../lib/keys/api-key.js";
import {
  ANSWER_LIMIT_MS,
  type Answer,
  answerProblem,
  type CaseResult,
  casePassed,
  caseProblems,
  disguisedKeys,
  formatCase,
  KEY_TEXT_WINDOW,
  keyBody,
  keysFoundIn,
  statusTally,
} from "../../lib/probe/verdict.js";

const answer = (overrides: Partial<Answer> = {}): Answer => ({
  label: "persons search",
  status: 400,
  expected: [400],
  ms: 12,
  limitMs: ANSWER_LIMIT_MS,
  ...overrides,
});

const result = (answers: Answer[], problems: string[] = []): CaseResult => ({
  name: "a case",
  answers,
  problems,
  ms: 30,
});

describe("answerProblem", () => {
  it("passes an expected status within the limit", () => {
    expect(answerProblem(answer())).toBeUndefined();
    expect(answerProblem(answer({ status: 429, expected: [200, 429] }))).toBeUndefined();
  });

  it("names a wrong status, a missing answer, a slow answer and any other problem, all at once", () => {
    expect(answerProblem(answer({ status: 413 }))).toBe("persons search: 413, expected 400");
    expect(answerProblem(answer({ status: -1, expected: [200, 429] }))).toBe(
      "persons search: no answer, expected 200 or 429",
    );
    expect(answerProblem(answer({ status: 500, ms: 2_400.4, problem: "error internal_error" }))).toBe(
      "persons search: 500, expected 400; took 2400 ms (limit 2000 ms); error internal_error",
    );
  });

  it("fails an answer that takes the whole limit: it must come under it", () => {
    expect(answerProblem(answer({ ms: ANSWER_LIMIT_MS - 0.1 }))).toBeUndefined();
    expect(answerProblem(answer({ ms: ANSWER_LIMIT_MS }))).toMatch(/took 2000 ms/);
  });
});

describe("a case's verdict", () => {
  it("passes only when every answer and the case itself have no problem", () => {
    expect(casePassed(result([answer(), answer()]))).toBe(true);
    expect(casePassed(result([answer(), answer({ ms: 5_000 })]))).toBe(false);
    expect(casePassed(result([answer()], ["no 429 in 500 requests"]))).toBe(false);
    expect(caseProblems(result([answer({ status: 200 })], ["case-wide"]))).toEqual([
      "persons search: 200, expected 400",
      "case-wide",
    ]);
  });

  it("a skipped part neither passes nor fails a case", () => {
    expect(casePassed({ ...result([answer()]), skipped: ["the server's output"] })).toBe(true);
  });
});

describe("key text", () => {
  const key = generateApiKey("test");
  const body = key.slice("pd_test_".length, "pd_test_".length + 32);

  it("a key's body is its 32 characters after the prefix; anything else is not a key", () => {
    expect(keyBody(key)).toBe(body);
    expect(keyBody(generateApiKey("live"))).toHaveLength(32);
    expect(() => keyBody("pd_test_short")).toThrow("not a key");
    expect(() => keyBody(`PD_TEST_${key.slice(8)}`)).toThrow("not a key");
  });

  it(`finds the whole key, its body, or any ${KEY_TEXT_WINDOW} characters of it in a row`, () => {
    const keys = { generous: key, other: generateApiKey("live") };
    expect(keysFoundIn(`{"msg":"x","key":"${key}"}`, keys)).toEqual(["generous"]);
    expect(keysFoundIn(`companyId ${body.toLowerCase()} and ${body}`, keys)).toEqual(["generous"]);
    expect(keysFoundIn(`…${body.slice(16)}`, keys)).toEqual(["generous"]);
    expect(keysFoundIn(`…${body.slice(5, 5 + KEY_TEXT_WINDOW)}…`, keys)).toEqual(["generous"]);
    expect(
      keysFoundIn(`${body.slice(0, KEY_TEXT_WINDOW - 1)}-${body.slice(KEY_TEXT_WINDOW - 1, 30)}`, keys),
    ).toEqual([]);
    expect(keysFoundIn("", keys)).toEqual([]);
  });

  it("disguises keep the key's body behind an altered prefix, or none", () => {
    const disguises = disguisedKeys(key);
    expect(disguises.map(({ name }) => name)).toEqual([
      "upper-case prefix",
      "dashes for underscores",
      "no prefix",
      "one letter before the body",
    ]);
    expect(disguises.map(({ text }) => text.slice(0, -38))).toEqual(["PD_TEST_", "pd-test-", "", "x"]);
    for (const { text } of disguises) expect(keysFoundIn(text, { key })).toEqual(["key"]);
  });

  it("agrees with the service's redaction: a redacted disguise holds nothing the scan finds", () => {
    for (const { text } of disguisedKeys(key))
      expect(keysFoundIn(redactApiKeys(`companyId ${text} forbidden`), { key })).toEqual([]);
  });
});

describe("formatCase", () => {
  it("says PASS or FAIL with the case's time and slowest answer, each answer, and the problems", () => {
    expect(formatCase(result([answer(), answer({ label: "employees search", ms: 1_234.5 })]))).toEqual([
      "PASS  a case  (30 ms; 2 answers, slowest 1235 ms)",
      "         400 in    12 ms  persons search",
      "         400 in  1235 ms  employees search",
    ]);
    const failed = formatCase(result([answer({ status: -1, said: "load: refused" })], ["scan found text"]));
    expect(failed).toEqual([
      "FAIL  a case  (30 ms; 1 answers, slowest 12 ms)",
      "        none in    12 ms  persons search",
      "                          load: refused",
      "      ✗ persons search: no answer, expected 400",
      "      ✗ scan found text",
    ]);
  });

  it("tallies many answers instead of listing them, and cuts a long list of problems", () => {
    const many = [
      ...Array.from({ length: 490 }, () => answer({ status: 429, expected: [200, 429] })),
      ...Array.from({ length: 10 }, () => answer({ status: 500, expected: [200, 429] })),
    ];
    expect(statusTally(many)).toBe("429×490 500×10");
    const lines = formatCase(result(many));
    expect(lines[1]).toBe("        statuses: 429×490 500×10");
    expect(lines.filter((line) => line.startsWith("      ✗ "))).toHaveLength(9);
    expect(lines.at(-1)).toBe("      ✗ … and 2 more");
  });

  it("shows what a scan checked and what it skipped", () => {
    const scan: CaseResult = {
      name: "no key text",
      answers: [],
      problems: [],
      ms: 4,
      detail: "4 keys",
      skipped: ["the server's output"],
    };
    expect(formatCase(scan)).toEqual([
      "PASS  no key text  (4 ms)",
      "        4 keys",
      "      SKIP the server's output",
    ]);
  });
});
