import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  endpointsFile,
  readEndpoints,
  removeEndpoints,
  writeEndpoints,
} from "../../lib/local/endpoints-file.js";

const ENDPOINTS = { url: "http://127.0.0.1:3000", dynamodb: "http://127.0.0.1:41234" };
let folder: string;
let file: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "endpoints-"));
  file = join(folder, ".local", "endpoints.json");
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** The pid of a process that has ended. */
function endedPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("no child process");
  return pid;
}

describe("the running server's endpoints file", () => {
  it("is in .local/ of the checkout unless ENDPOINTS_FILE says otherwise", () => {
    expect(endpointsFile({})).toMatch(/\/\.local\/endpoints\.json$/);
    expect(endpointsFile({ ENDPOINTS_FILE: "/x/e.json" })).toBe("/x/e.json");
  });

  it("is read back while the process that wrote it runs", () => {
    writeEndpoints(file, ENDPOINTS);
    expect(readEndpoints(file)).toEqual({ ...ENDPOINTS, pid: process.pid });
  });

  it("is ignored when absent, unreadable or left by a process that has ended", () => {
    expect(readEndpoints(file)).toBeUndefined();
    writeEndpoints(file, ENDPOINTS);
    writeFileSync(file, "{ not json");
    expect(readEndpoints(file)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ url: ENDPOINTS.url }));
    expect(readEndpoints(file)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ ...ENDPOINTS, pid: endedPid() }));
    expect(readEndpoints(file)).toBeUndefined();
  });

  it("is removed by the process that wrote it, never by another", () => {
    writeEndpoints(file, ENDPOINTS);
    removeEndpoints(file);
    expect(existsSync(file)).toBe(false);
    const other = JSON.stringify({ ...ENDPOINTS, pid: endedPid() });
    writeFileSync(file, other);
    removeEndpoints(file);
    expect(readFileSync(file, "utf8")).toBe(other);
  });
});
