/**
 * The Chromium the reference page test drives: the build the npm package @sparticuz/chromium
 * carries (a devDependency), so the test needs no system package. Its binary links only against
 * glibc, NSS (libnss3, libnspr4) and expat; fonts come from the system's fontconfig.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

/**
 * Flags for a headless browser that makes no request of its own off this machine. Playwright
 * already adds --headless, --disable-background-networking, --disable-component-update,
 * --disable-sync, --no-first-run and the like. The package's own `args` are for AWS Lambda
 * (--single-process, --disable-web-security, ...): not used, a test page keeps its web security.
 */
export const CHROMIUM_ARGS = [
  // Tests may run as root (containers, CI), where Chromium's sandbox cannot start.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-pings",
  "--disable-domain-reliability",
  // No host name resolves except this machine's: nothing the browser itself starts can leave it.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

/**
 * The binary's path, unpacked on first use (a few seconds) from the package's chromium.br. The
 * package's own executablePath() trusts whatever /tmp/chromium holds, even a file half-written by
 * an interrupted run or another version's; this unpacks to a path named by the version and renames
 * the complete file into place, so a reader sees the whole binary or none.
 */
export async function chromiumExecutable(): Promise<string> {
  const packageDir = join(dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "..");
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    version: string;
  };
  const directory = join(tmpdir(), `sparticuz-chromium-${version}`);
  const executable = join(directory, "chromium");
  if (existsSync(executable)) return executable;
  mkdirSync(directory, { recursive: true });
  const partial = `${executable}.${process.pid}.partial`;
  try {
    await pipeline(
      createReadStream(join(packageDir, "bin", "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o700 }),
    );
    renameSync(partial, executable);
  } finally {
    rmSync(partial, { force: true });
  }
  return executable;
}
