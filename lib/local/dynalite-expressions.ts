/**
 * Remembers what dynalite's expression parsers made of an expression. dynalite parses every
 * condition, key condition, filter, update and projection expression of every request with
 * PEG.js parsers, and that parsing was about a quarter of a loading test's CPU: a load sends the
 * same few expressions, with the same names and often the same values, thousands of times.
 *
 * A parse depends only on the expression, the request's `ExpressionAttributeNames` and
 * `ExpressionAttributeValues` (which it resolves into the tree, and checks), and whether it is a
 * key condition, so those are the key. Besides its tree, a parse marks the names and values it
 * used in the request's context (dynalite refuses a request that leaves one unused): the cache
 * keeps that set, found by parsing against a context of its own, and marks it again on a hit.
 * Each caller gets a copy of the tree, so nothing dynalite does to one request's tree reaches
 * another. Errors are never remembered: they take the parser's own path.
 */
import { createRequire } from "node:module";

interface ParseContext {
  attrNames?: Record<string, unknown>;
  attrVals?: Record<string, unknown>;
  unusedAttrNames: Record<string, boolean>;
  unusedAttrVals: Record<string, boolean>;
  isKeyCondition?: boolean;
  [other: string]: unknown;
}

interface Parser {
  parse(text: string, options: { context: ParseContext }): unknown;
}

interface Parsed {
  readonly tree: unknown;
  readonly usedNames: readonly string[];
  readonly usedValues: readonly string[];
}

/**
 * Enough for the distinct expressions of a test file or a local session, within about 32 MB of
 * keys and trees: cleared when either limit is reached. A key of more than a hundredth of the
 * characters (very large values) is parsed each time.
 */
const MAX_ENTRIES = 20_000;
const MAX_CACHED_CHARS = 16_000_000;
const MAX_KEY_CHARS = MAX_CACHED_CHARS / 100;
const PARSERS = ["conditionParser", "updateParser", "projectionParser"] as const;

let installed = false;

export function rememberDynaliteParses(): void {
  if (installed) return;
  installed = true;
  const require = createRequire(import.meta.url);
  for (const name of PARSERS) {
    const parser = require(`dynalite/db/${name}`) as Parser;
    parser.parse = remembering(name, parser.parse.bind(parser));
  }
}

function remembering(name: string, parse: Parser["parse"]): Parser["parse"] {
  const parsed = new Map<string, Parsed>();
  let cachedChars = 0;
  return (text, options) => {
    const { context } = options;
    const key = keyOf(name, text, context);
    if (key.length > MAX_KEY_CHARS) return parse(text, options);
    const found = parsed.get(key);
    if (found !== undefined) {
      markUsed(context, found);
      return structuredClone(found.tree);
    }
    const fresh = parseAlone(parse, text, context);
    // A string is dynalite's answer for an invalid expression (a syntax error throws).
    if (typeof fresh === "string") return fresh;
    if (parsed.size >= MAX_ENTRIES || cachedChars + key.length > MAX_CACHED_CHARS) {
      parsed.clear();
      cachedChars = 0;
    }
    // The cache keeps a copy; this caller takes the tree just parsed.
    parsed.set(key, { ...fresh, tree: structuredClone(fresh.tree) });
    cachedChars += key.length;
    markUsed(context, fresh);
    return fresh.tree;
  };
}

function markUsed(context: ParseContext, parsed: Parsed): void {
  for (const used of parsed.usedNames) delete context.unusedAttrNames[used];
  for (const used of parsed.usedValues) delete context.unusedAttrVals[used];
}

function keyOf(name: string, text: string, context: ParseContext): string {
  const { isKeyCondition, attrNames, attrVals } = context;
  return JSON.stringify([name, text, isKeyCondition === true, attrNames ?? null, attrVals ?? null]);
}

/** Parses against a context of its own, to learn which of the request's names and values it uses. */
function parseAlone(parse: Parser["parse"], text: string, context: ParseContext): Parsed | string {
  const names = Object.keys(context.attrNames ?? {});
  const values = Object.keys(context.attrVals ?? {});
  const own: ParseContext = {
    ...context,
    unusedAttrNames: Object.fromEntries(names.map((n) => [n, true])),
    unusedAttrVals: Object.fromEntries(values.map((v) => [v, true])),
  };
  const tree = parse(text, { context: own });
  if (typeof tree === "string") return tree;
  return {
    tree,
    usedNames: names.filter((n) => !(n in own.unusedAttrNames)),
    usedValues: values.filter((v) => !(v in own.unusedAttrVals)),
  };
}
