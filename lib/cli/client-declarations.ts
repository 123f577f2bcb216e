/**
 * The typed client's declarations, self-contained. TypeScript emits the `.d.ts` of each file of
 * lib/client/, except contract.ts, which names the route table's types (Zod's, underneath): that
 * one is written with each alias replaced by the plain type TypeScript resolves it to, printed by
 * TypeScript itself. Two checks then refuse a wrong package: the declarations compile on their own,
 * reaching no file outside the package (no Zod, nothing of this repository), and each written type
 * is mutually assignable with the alias it replaces.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const CLIENT = fileURLToPath(new URL("../client/", import.meta.url));
const ENTRY = join(CLIENT, "index.ts");
const CONTRACT = join(CLIENT, "contract.ts");

/** How a partner compiles: strict, ES modules as Node runs them; no ambient types of this repository. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  types: [],
};

/** Whole types, never `...`; object types over several lines, as a partner reads them. */
const PRINTING =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.InTypeAlias |
  ts.NodeBuilderFlags.MultilineObjectLiterals;

const CONTRACT_HEADER =
  "/** The service's requests, answers and error codes, as its schemas define them. */\n";

/** Each declaration file's text by its path in the package (`index.d.ts`, `client.d.ts`, …). */
export function clientDeclarations(): Map<string, string> {
  const program = ts.createProgram([ENTRY], { ...OPTIONS, declaration: true, emitDeclarationOnly: true });
  const sources = program.getSourceFiles().filter((source) => source.fileName.startsWith(CLIENT));
  failOn(sources.flatMap((source) => ts.getPreEmitDiagnostics(program, source)));
  const files = new Map<string, string>();
  for (const source of sources) {
    const name = relative(CLIENT, source.fileName).replace(/\.ts$/, ".d.ts");
    if (source.fileName === CONTRACT) files.set(name, resolvedContract(program.getTypeChecker(), source));
    else program.emit(source, (_, text) => files.set(name, text), undefined, true);
  }
  return files;
}

/** contract.ts with every alias written out in full. */
function resolvedContract(checker: ts.TypeChecker, source: ts.SourceFile): string {
  const printer = ts.createPrinter();
  const aliases = source.statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement)) return [];
    if (!ts.isTypeAliasDeclaration(statement) || statement.typeParameters || !isExported(statement))
      throw new Error(`${CONTRACT} may hold only exported type aliases without parameters`);
    const type = checker.typeToTypeNode(checker.getTypeAtLocation(statement.name), statement, PRINTING);
    if (!type) throw new Error(`${CONTRACT}: TypeScript cannot print ${statement.name.text}`);
    const written = ts.factory.updateTypeAliasDeclaration(
      statement,
      statement.modifiers,
      statement.name,
      undefined,
      type,
    );
    return [printer.printNode(ts.EmitHint.Unspecified, written, source)];
  });
  return `${CONTRACT_HEADER}${aliases.join("\n")}\n`;
}

function isExported(alias: ts.TypeAliasDeclaration): boolean {
  return alias.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

/**
 * Refuses the package in `dir` unless its declarations compile alone (strict, no library checks
 * skipped, with only the ECMAScript and DOM libraries: a browser's setup as much as Node's), reach
 * no file outside `dir`, and write out each contract type as its alias in lib/client/contract.ts.
 */
export function checkClientDeclarations(dir: string): void {
  const declarations = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".d.ts"))
    .map((name) => join(dir, name));
  const alone = ts.createProgram(declarations, {
    ...OPTIONS,
    skipLibCheck: false,
    noEmit: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  });
  failOn(ts.getPreEmitDiagnostics(alone));
  const inside = join(dir, "/");
  const outside = alone
    .getSourceFiles()
    .filter((file) => !alone.isSourceFileDefaultLibrary(file) && !file.fileName.startsWith(inside))
    .map((file) => file.fileName);
  if (outside.length > 0)
    throw new Error(`the declarations reach outside the package: ${outside.join(", ")}`);
  checkSameAsSource(join(dir, "contract.d.ts"));
}

/** Compiles a file assigning each written type to its alias and back; any mismatch fails it. */
function checkSameAsSource(written: string): void {
  const probe = join(dirname(written), "same-as-source.ts");
  const names = ts
    .createSourceFile(written, ts.sys.readFile(written) ?? "", ts.ScriptTarget.ES2022)
    .statements.filter(ts.isTypeAliasDeclaration)
    .map((alias) => alias.name.text);
  if (names.length === 0) throw new Error(`${written} declares no type`);
  const source = relative(dirname(written), CONTRACT).replace(/\.ts$/, ".js");
  const text = [
    'import type * as Written from "./contract.js";',
    `import type * as Source from ${JSON.stringify(source.startsWith(".") ? source : `./${source}`)};`,
    "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    ...names.map((name) => `export const ${name}: Same<Written.${name}, Source.${name}> = true;`),
  ].join("\n");
  const host = ts.createCompilerHost(OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, ...rest) =>
    name === probe ? ts.createSourceFile(name, text, ts.ScriptTarget.ES2022) : getSourceFile(name, ...rest);
  host.fileExists = (name) => name === probe || fileExists(name);
  host.readFile = (name) => (name === probe ? text : readFile(name));
  const program = ts.createProgram([probe], { ...OPTIONS, noEmit: true }, host);
  const file = program.getSourceFile(probe);
  failOn(program.getSyntacticDiagnostics(file));
  // A type that differs is an error at its name; any other error is shown as it is.
  const diagnostics = program.getSemanticDiagnostics(file);
  const differing = diagnostics.map(({ start }) => names.find((name) => text.startsWith(`${name}:`, start)));
  if (differing.includes(undefined)) failOn(diagnostics);
  if (differing.length > 0)
    throw new Error(`the written types differ from ${CONTRACT}'s: ${[...new Set(differing)].join(", ")}`);
}

function failOn(diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  const host = {
    getCanonicalFileName: (name: string) => name,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => "\n",
  };
  throw new Error(`the client's declarations do not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
}
