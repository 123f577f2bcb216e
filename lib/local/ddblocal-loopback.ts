/**
 * DynamoDB Local on 127.0.0.1 only. It has no option for the address it listens on (its flags are
 * -port, -inMemory, -sharedDb, -dbPath, -cors, …; its Jetty server binds every interface), so
 * LoopbackDynamoDbLocal.java starts it with the address set (and idle connections kept open for
 * 10 minutes, not Jetty's 30 s). That class is compiled once per jar
 * and source, with the JDK's compiler module (in every JDK, and in Debian's JRE) run by `java`
 * itself, into the jar's cache folder; later starts cost nothing extra.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { access, mkdtemp, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { DdbLocalJar } from "./ddblocal-jar.js";

const run = promisify(execFile);

export const LOOPBACK_MAIN_CLASS = "LoopbackDynamoDbLocal";
const SOURCE = fileURLToPath(new URL(`./${LOOPBACK_MAIN_CLASS}.java`, import.meta.url));

export type LoopbackLauncher =
  /** The folder holding the compiled class: put it on the class path after the jar. */
  | { readonly classDir: string }
  /** Why this Java cannot compile it (no jdk.compiler module, e.g. a slim JRE). */
  | { readonly unavailable: string };

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The compiled launcher for `jar`, compiling it on first use (safe when two processes race). */
export async function loopbackLauncher(jar: DdbLocalJar, java = "java"): Promise<LoopbackLauncher> {
  const hash = createHash("sha256").update(readFileSync(SOURCE)).digest("hex").slice(0, 16);
  const cacheDir = dirname(jar.dir);
  const classDir = join(cacheDir, `loopback-${hash}`);
  // Like the jar's folder, this one only appears by an atomic rename: it exists complete or not at all.
  if (await exists(classDir)) return { classDir };

  const work = await mkdtemp(join(cacheDir, ".loopback-"));
  try {
    const javac = [
      "-m",
      "jdk.compiler/com.sun.tools.javac.Main",
      "-nowarn",
      "-d",
      work,
      "-cp",
      jar.jar,
      SOURCE,
    ];
    try {
      await run(java, javac, { maxBuffer: 1024 * 1024 });
    } catch (error) {
      const stderr = (error as { stderr?: unknown }).stderr;
      const reason = typeof stderr === "string" && stderr.trim() ? stderr.trim() : (error as Error).message;
      return { unavailable: reason.split("\n")[0] ?? reason };
    }
    try {
      await rename(work, classDir);
    } catch (error) {
      // Another process compiled it first; theirs is the same source.
      if (!(await exists(classDir))) throw error;
    }
    return { classDir };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
