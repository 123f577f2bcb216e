/** The liveness decision behind taking over a dead load's lease before it expires. */
import { spawn } from "node:child_process";
import { hostname } from "node:os";
import {
  holderIsDead,
  pidAlive,
  processState,
  thisHost,
  thisProcess,
} from "../../lib/store/dynamo/manifest/lease-holder.js";

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
    // sh starts a short sleep, then becomes a long one that never collects it: a zombie until the
    // parent is killed below (however long a busy machine takes to get there).
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 3600"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const pid = Number(
        await new Promise<string>((resolve) =>
          parent.stdout?.once("data", (chunk) => resolve(String(chunk))),
        ),
      );
      // Bounded by the test's timeout: the child exits at once, but a busy machine may delay it.
      while (processState(pid) !== "Z") await new Promise((resolve) => setTimeout(resolve, 50));
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
