import { readRss, rssOfStatus } from "../../lib/load-test/proc-rss.js";

describe("a process's RSS from /proc", () => {
  it("reads the VmRSS line in bytes", () => {
    const status = "Name:\tnode\nVmHWM:\t  400000 kB\nVmRSS:\t  123456 kB\nRssAnon:\t  100000 kB\n";
    expect(rssOfStatus(status)).toBe(123456 * 1024);
  });

  it("has no answer for a status without the line (a zombie's)", () => {
    expect(rssOfStatus("Name:\tnode\nState:\tZ (zombie)\n")).toBeUndefined();
  });

  it("reads this process's, and fails for a process that is not there", async () => {
    expect(await readRss(process.pid)).toBeGreaterThan(0);
    await expect(readRss(2 ** 31 - 1)).rejects.toThrow("/proc/2147483647/status");
  });
});
