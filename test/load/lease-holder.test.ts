/** The liveness decision behind taking over a dead load's lease before it expires. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type { Writable } from "node:stream";
import {
  holderIsDead,
  pidAlive,
  processState,
  thisHost,
  thisProcess,
} from "../../lib/store/dynamo/manifest/lease-holder.js";

/** The program a process runs now (its `comm`), or undefined when it is gone. */
function commandOf(pid: number | undefined): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("no child pid");
  await new Promise((resolve) => child.once("exit", resolve));
  return pid;
}

describe("lease holder liveness", () => {
  const here = { host: "host-a boot-1 pid:[1]", alive: (pid: number) => pid === 100 };

  it("a holder on this host whose pid is gone is dead", () => {
    expect(holderIsDead({ host: here.host, pid: 200 }, here)).toBe(true);
  });

  it("a holder on this host whose pid exists is alive, whatever program the pid now runs", () => {
    expect(holderIsDead({ host: here.host, pid: 100 }, here)).toBe(false);
  });

  it("a holder on another host, or this hostname after a reboot or in another pid namespace, is never judged", () => {
    for (const host of ["host-b boot-1 pid:[1]", "host-a boot-2 pid:[1]", "host-a boot-1 pid:[2]", "host-a"])
      expect(holderIsDead({ host, pid: 200 }, here)).toBe(false);
  });

  it("a lease with no holder (an older loader's) or a malformed one is never judged dead", () => {
    for (const holder of [
      undefined,
      null,
      "host-a",
      { host: here.host },
      { pid: 200 },
      { host: "", pid: 200 },
      { host: here.host, pid: 0 },
      { host: here.host, pid: -1 },
      { host: here.host, pid: 2.5 },
      { host: here.host, pid: "200" },
    ])
      expect(holderIsDead(holder, here)).toBe(false);
  });

  it("pidAlive: this process is alive, an exited child is not", async () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(await deadPid())).toBe(false);
  });

  it("pidAlive: a zombie (exited, its status not yet collected) is not alive", async () => {
    // sh starts a child that waits for a line on fd 3, then becomes a sleep that never collects it.
    // The line is sent only once sh is that sleep: a child that ended before could be reaped by sh.
    const parent = spawn("sh", ["-c", "read line <&3 & echo $!; exec sleep 3600"], {
      stdio: ["ignore", "pipe", "ignore", "pipe"],
    });
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout?.once("data", (data) => resolve(String(data)))),
      );
      // Waits on states, never on time: a busy machine only takes longer.
      await until(() => commandOf(parent.pid) === "sleep");
      (parent.stdio[3] as Writable).write("go\n");
      await until(() => processState(pid) === "Z");
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(pidAlive(pid)).toBe(false);
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("thisProcess names this host (starting with its hostname) and this pid; with the real checks it is alive", async () => {
    const me = thisProcess();
    expect(me).toEqual({ host: thisHost(), pid: process.pid });
    expect(me.host.startsWith(hostname())).toBe(true);
    expect(holderIsDead(me)).toBe(false);
    expect(holderIsDead({ host: me.host, pid: await deadPid() })).toBe(true);
    expect(holderIsDead({ host: `${me.host} elsewhere`, pid: await deadPid() })).toBe(false);
  });
});
