/**
 * Synthesizes one stage the way `cdk synth` does (cdk.json feature flags), with cdk-nag's
 * AwsSolutions pack as a validation plugin (added by addStage): templates only, or with the real
 * esbuild bundles too (`{ bundles: true }`, for the tests that read or run a bundle).
 *
 * In the infra project a stage is synthesized once per run, options and bundling, into the folder of
 * global-setup.ts, and shared by every file: the first file to ask synthesizes it (a lock folder
 * makes the others wait for it, however long it takes); the others read its cloud assembly and
 * build the stage's constructs again without bundling or synthesis, for the reads of the construct
 * tree. Each caller gets an `outdir` of its own (a link to the shared assembly) that it may remove.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, Validations } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import type { IConstruct } from "constructs";
import { addStage, createApp, type StageOptions, type StageStacks } from "../../infra/stage-stacks.js";
import { SYNTH_DIR_ENV } from "./global-setup.js";
import { settingsFor } from "./stage-settings.js";

export interface SynthesizedStage extends StageStacks {
  /** What the stage was synthesized with (as `-c …` would give). */
  readonly options: StageOptions;
  readonly statefulTemplate: Template;
  readonly statelessTemplate: Template;
  /** Every rule violation reported by a validation plugin (cdk-nag, CloudFormation rules). */
  readonly violations: string[];
  /** The synthesis error, if validation failed. */
  readonly synthError?: string;
  readonly acknowledgments: { readonly path: string; readonly id: string; readonly reason: string }[];
  /** The cloud assembly directory (with bundles, each function's is in `asset.<hash>/`). */
  readonly outdir: string;
  readonly millis: number;
}

interface ReportShape {
  pluginReports?: {
    pluginName?: string;
    violations?: { ruleName: string; severity?: string; description: string }[];
  }[];
}

interface Synthesis {
  readonly stacks: StageStacks;
  readonly outdir: string;
  readonly synthError?: string;
  readonly acknowledgments: SynthesizedStage["acknowledgments"];
}

/**
 * Environment-agnostic, as a synth without credentials is (the account pinning has its own tests),
 * with the stage's test settings (stage-settings.ts) under `given`.
 */
export function synthesizeStage(
  stage: string,
  given: Omit<StageOptions, "env"> = {},
  { bundles = false }: { bundles?: boolean } = {},
): SynthesizedStage {
  const started = Date.now();
  const options: StageOptions = { ...settingsFor(stage), ...given, env: {} };
  const runDir = process.env[SYNTH_DIR_ENV];
  // A route table holds code, which no key can tell apart: such a stage is its caller's alone.
  const { stacks, outdir, synthError, acknowledgments } =
    runDir && given.routes === undefined
      ? sharedSynthesis(runDir, stage, options, bundles)
      : synthesize(stage, options, bundles);
  const templateOf = (stackName: string) =>
    Template.fromJSON(JSON.parse(readFileSync(join(outdir, `${stackName}.template.json`), "utf8")));
  return {
    ...stacks,
    options,
    statefulTemplate: templateOf(stacks.stateful.stackName),
    statelessTemplate: templateOf(stacks.stateless.stackName),
    violations: readViolations(join(outdir, "validation-report.json")),
    synthError,
    acknowledgments,
    outdir,
    millis: Date.now() - started,
  };
}

/**
 * A folder for an app's cloud assembly inside this run's folder, which global-teardown.ts removes.
 * An App given none makes its own `cdk.out*` folder in the system's temporary folder, and CDK
 * never removes it: a run of this project would leave a dozen behind.
 */
export function runOutdir(): string {
  return mkdtempSync(join(process.env[SYNTH_DIR_ENV] ?? tmpdir(), "app-"));
}

/** An app as `cdk synth` makes it (cdk.json's context), without esbuild bundles, in the run's folder. */
export function unbundledApp(): App {
  const app = createApp(runOutdir());
  app.node.setContext("aws:cdk:bundling-stacks", []);
  return app;
}

function synthesize(stage: string, options: StageOptions, bundles: boolean, outdir?: string): Synthesis {
  const app = createApp(outdir ?? runOutdir());
  if (!bundles) app.node.setContext("aws:cdk:bundling-stacks", []);
  const stacks = addStage(app, stage, options);
  let synthError: string | undefined;
  try {
    app.synth();
  } catch (error) {
    synthError = error instanceof Error ? error.message : String(error);
  }
  // After synthesis: some are added while it prepares the tree (e.g. the policies' wildcards).
  return { stacks, outdir: app.outdir, synthError, acknowledgments: collectAcknowledgments(app) };
}

/** What a synthesis knows besides its assembly, kept beside it for the files that reuse it. */
const SYNTH_ERROR_FILE = "synth-error.txt";
const ACKNOWLEDGMENTS_FILE = "acknowledgments.json";

/** The shared assembly's folder name: the stage, bundles or not, and a hash of its options. */
function cacheKey(stage: string, options: StageOptions, bundles: boolean): string {
  const hash = createHash("sha256").update(JSON.stringify(options)).digest("hex").slice(0, 16);
  return `${stage.replace(/[^a-z0-9-]/gi, "_")}-${bundles ? "bundles" : "templates"}-${hash}`;
}

function sharedSynthesis(runDir: string, stage: string, options: StageOptions, bundles: boolean): Synthesis {
  const key = cacheKey(stage, options, bundles);
  const ready = join(runDir, key);
  const lock = `${ready}.lock`;
  // Unique per call: jest gives each file in a worker fresh modules, so no counter would do.
  const caller = join(runDir, "callers", `${key}-${randomUUID()}`);
  const own = (suffix: string) => `${caller}${suffix}`;
  mkdirSync(join(runDir, "callers"), { recursive: true });
  for (;;) {
    if (existsSync(ready)) {
      const app = createApp(own(".tree"));
      // The construct tree only: the assembly (bundles included) is the shared one.
      app.node.setContext("aws:cdk:bundling-stacks", []);
      const stacks = addStage(app, stage, options);
      const errorFile = join(ready, SYNTH_ERROR_FILE);
      return {
        stacks,
        outdir: linkTo(ready, own("")),
        synthError: existsSync(errorFile) ? readFileSync(errorFile, "utf8") : undefined,
        acknowledgments: JSON.parse(readFileSync(join(ready, ACKNOWLEDGMENTS_FILE), "utf8")),
      };
    }
    if (tryLock(lock)) {
      try {
        if (existsSync(ready)) continue;
        const building = `${ready}.building`;
        rmSync(building, { recursive: true, force: true });
        const made = synthesize(stage, options, bundles, building);
        if (made.synthError !== undefined) writeFileSync(join(building, SYNTH_ERROR_FILE), made.synthError);
        writeFileSync(join(building, ACKNOWLEDGMENTS_FILE), JSON.stringify(made.acknowledgments));
        renameSync(building, ready);
        return { ...made, outdir: linkTo(ready, own("")) };
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    waitForLock(lock);
  }
}

function linkTo(target: string, path: string): string {
  symlinkSync(target, path);
  return path;
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  writeFileSync(join(lock, "pid"), String(process.pid));
  return true;
}

/** Sleeps a moment; takes the lock away from a holder that died (its process is gone). */
function waitForLock(lock: string): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  let holder: number;
  try {
    holder = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    return; // Released, or taken a moment ago and its pid not written yet.
  }
  try {
    process.kill(holder, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") rmSync(lock, { recursive: true, force: true });
  }
}

function readViolations(reportPath: string): string[] {
  if (!existsSync(reportPath)) return [];
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as ReportShape;
  return (report.pluginReports ?? []).flatMap((plugin) =>
    (plugin.violations ?? []).map(
      (violation) =>
        `${plugin.pluginName ?? "?"} ${violation.severity ?? ""} ${violation.ruleName}: ${violation.description}`,
    ),
  );
}

function collectAcknowledgments(root: IConstruct): SynthesizedStage["acknowledgments"] {
  const found: { path: string; id: string; reason: string }[] = [];
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      // Recorded by Validations.acknowledge() as { [ruleId]: reason }.
      for (const [id, reason] of Object.entries((entry.data ?? {}) as Record<string, unknown>)) {
        found.push({ path: construct.node.path, id, reason: typeof reason === "string" ? reason : "" });
      }
    }
  }
  return found;
}
