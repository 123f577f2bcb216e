/** The loads profile's report as text: one row per load, what storage did, then the targets. */
import type { LoadsReport } from "./load-bench.js";
import { loadChecks } from "./load-targets.js";
import { formatChecks, table } from "./report.js";

const num = (value: number) => String(Math.round(value * 10) / 10);
const thousands = (value: number) => value.toLocaleString("en-US");

export function formatLoadsReport(report: LoadsReport): string {
  const rows = table(
    [
      "load",
      "lines",
      "wcu",
      "write calls",
      "items written",
      "rcu",
      "read calls",
      "seconds",
      "peak RSS MB",
      "items stored after",
    ],
    report.cases.map((c) => [
      c.name,
      thousands(c.lines),
      thousands(c.wcu),
      thousands(c.writeCalls),
      thousands(c.itemsWritten),
      num(c.rcu),
      thousands(c.readCalls),
      c.seconds.toFixed(1),
      num(c.peakRssMb),
      c.itemsStored === undefined ? "not counted" : thousands(c.itemsStored),
    ]),
  );
  const storage = report.storage
    ? `items stored after all the loads: ${thousands(report.storage.afterAllLoads)}; ` +
      `the final state loaded once: ${thousands(report.storage.finalStateLoadedOnce)}` +
      (report.storage.afterAllLoads === report.storage.finalStateLoadedOnce ? " (equal)" : " (DIFFERENT)")
    : "";
  const startRss = report.cases.map((c) => c.startRssMb);
  return [
    `engine: ${report.engine}; dataset: ${JSON.stringify(report.dataset)}`,
    `wcu as the engine reports it; rss of the loading process (${Math.min(...startRss)} to ${Math.max(...startRss)} MB before loading)`,
    "",
    rows,
    "",
    storage,
    "",
    formatChecks(loadChecks(report)),
    "",
  ].join("\n");
}
