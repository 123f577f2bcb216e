/**
 * dev: the only deployed stage with the draft search routes. Synthesized once (real esbuild
 * bundling, cdk-nag on).
 */
import { rmSync } from "node:fs";
import { apiAssertions } from "./api-assertions.js";
import { ingestBundleAssertions } from "./ingest-bundle.js";
import { platformAssertions } from "./platform-assertions.js";
import { type SynthesizedStage, synthesizeStage } from "./synth.js";

let dev: SynthesizedStage | undefined;
function get(): SynthesizedStage {
  if (!dev) throw new Error("dev was not synthesized");
  return dev;
}

beforeAll(() => {
  dev = synthesizeStage("dev", {}, { bundles: true });
  console.info(`dev synthesized in ${dev.millis} ms`);
});

afterAll(() => {
  if (dev) rmSync(dev.outdir, { recursive: true, force: true });
});

apiAssertions("dev", get);
platformAssertions("dev", get);
ingestBundleAssertions("dev", get);

describe("dev", () => {
  it("deploys both draft search routes on the search API", () => {
    const search = get().stateless.api("search");
    expect(
      search.routeMethods.map((method) => `${method.httpMethod} ${method.resource.path}`).sort(),
    ).toEqual(["POST /v1/employees/search", "POST /v1/persons/search"]);
  });

  it("lets the tables go with the stack", () => {
    for (const table of Object.values(get().statefulTemplate.findResources("AWS::DynamoDB::Table"))) {
      expect(table.DeletionPolicy).toBe("Delete");
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    }
  });
});
