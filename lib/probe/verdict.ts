/**
 * Whether a probe case held: pure checks over its timed answers, and the scan of captured output
 * for key text. A case passes when every answer has an expected status, nothing else is wrong with
 * it, and it came within its limit (an HTTP answer 2 s).
 */

/** The most an HTTP answer of the probe may take. */
export const ANSWER_LIMIT_MS = 2_000;

/** One timed answer: an HTTP response, or a CLI's exit. */
export interface Answer {
  /** What was sent, never a key. */
  readonly label: string;
  /** The HTTP status, or the CLI's exit code; -1 when there was none (no answer, or killed). */
  readonly status: number;
  readonly expected: readonly number[];
  readonly ms: number;
  readonly limitMs: number;
  /** What else was wrong with it (its body, a header, a message), if anything. */
  readonly problem?: string;
  /** What it said, when worth showing (a CLI's last line). */
  readonly said?: string;
}

export interface CaseResult {
  readonly name: string;
  readonly answers: readonly Answer[];
  /** Problems of the case as a whole (a scan, a count), beside its answers'. */
  readonly problems: readonly string[];
  /** Wall time of the whole case. */
  readonly ms: number;
  /** Parts not checked, and why (neither a pass nor a failure). */
  readonly skipped?: readonly string[];
  /** What was checked, when its answers do not say (a scan). */
  readonly detail?: string;
}

/** What is wrong with one answer, or undefined when nothing is. */
export function answerProblem(answer: Answer): string | undefined {
  const wrong = [
    answer.expected.includes(answer.status)
      ? undefined
      : `${answer.status === -1 ? "no answer" : answer.status}, expected ${answer.expected.join(" or ")}`,
    answer.ms < answer.limitMs ? undefined : `took ${Math.round(answer.ms)} ms (limit ${answer.limitMs} ms)`,
    answer.problem,
  ].filter((part) => part !== undefined);
  return wrong.length === 0 ? undefined : `${answer.label}: ${wrong.join("; ")}`;
}

/** Every problem of a case: its answers' then its own. */
export function caseProblems(result: CaseResult): string[] {
  return [...result.answers.flatMap((answer) => answerProblem(answer) ?? []), ...result.problems];
}

export const casePassed = (result: CaseResult): boolean => caseProblems(result).length === 0;

const KEY_BODY = /^pd_(?:live|test)_([0-9A-Za-z]{32})[0-9A-Za-z]{6}$/;

/** The 32 random characters of a key `pd_<env>_<body><check>`; throws for anything else. */
export function keyBody(key: string): string {
  const body = KEY_BODY.exec(key)?.[1];
  if (body === undefined) throw new Error("not a key: expected pd_<env>_ and 38 base62 characters");
  return body;
}

/** The shortest part of a key's body the scan looks for: 16 random base62 characters never occur by chance. */
export const KEY_TEXT_WINDOW = 16;

/**
 * The names of the keys some text of which `text` holds: the 32-character body, or any 16 characters
 * of it in a row (a cut or split key still leaks). Names only: a finding never repeats the key.
 */
export function keysFoundIn(text: string, keys: Readonly<Record<string, string>>): string[] {
  return Object.entries(keys)
    .filter(([, key]) => {
      const body = keyBody(key);
      for (let at = 0; at + KEY_TEXT_WINDOW <= body.length; at += 1)
        if (text.includes(body.slice(at, at + KEY_TEXT_WINDOW))) return true;
      return false;
    })
    .map(([name]) => name);
}

/** Disguises of a key as a caller might paste it where a company id belongs, each with its name. */
export function disguisedKeys(key: string): { name: string; text: string }[] {
  const rest = key.slice(key.indexOf("_", 3) + 1);
  const prefix = key.slice(0, key.length - rest.length);
  keyBody(key);
  return [
    { name: "upper-case prefix", text: `${prefix.toUpperCase()}${rest}` },
    { name: "dashes for underscores", text: `${prefix.replaceAll("_", "-")}${rest}` },
    { name: "no prefix", text: rest },
    { name: "one letter before the body", text: `x${rest}` },
  ];
}

const ANSWERS_LISTED = 12;
const PROBLEMS_LISTED = 8;

const ms = (value: number) => `${Math.round(value)} ms`;

const statusText = (status: number) => (status === -1 ? "none" : String(status));

/** Statuses and how often each came: `200×12 429×488`. */
export function statusTally(answers: readonly Answer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${statusText(status)}×${count}`)
    .join(" ");
}

/** Each answer on a line (and what it said beneath), or one tally when there are many. */
function answerLines(answers: readonly Answer[]): string[] {
  if (answers.length > ANSWERS_LISTED) return [`        statuses: ${statusTally(answers)}`];
  return answers.flatMap((answer) => [
    `        ${statusText(answer.status).padStart(4)} in ${ms(answer.ms).padStart(8)}  ${answer.label}`,
    ...(answer.said === undefined ? [] : [`                          ${answer.said}`]),
  ]);
}

/** A case's lines: its verdict and time, each answer (or a tally when many), its problems. */
export function formatCase(result: CaseResult): string[] {
  const problems = caseProblems(result);
  const slowest = Math.max(0, ...result.answers.map((answer) => answer.ms));
  const answered =
    result.answers.length === 0 ? "" : `; ${result.answers.length} answers, slowest ${ms(slowest)}`;
  return [
    `${problems.length === 0 ? "PASS" : "FAIL"}  ${result.name}  (${ms(result.ms)}${answered})`,
    ...(result.detail === undefined ? [] : [`        ${result.detail}`]),
    ...answerLines(result.answers),
    ...problems.slice(0, PROBLEMS_LISTED).map((problem) => `      ✗ ${problem}`),
    ...(problems.length > PROBLEMS_LISTED ? [`      ✗ … and ${problems.length - PROBLEMS_LISTED} more`] : []),
    ...(result.skipped ?? []).map((skipped) => `      SKIP ${skipped}`),
  ];
}
