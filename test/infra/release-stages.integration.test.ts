/**
 * sandbox and prod: the release stages, without the draft search routes. Each stage is
 * synthesized once (real esbuild bundling, cdk-nag on).
 */
import { rmSync } from "node:fs";
import { apiAssertions } from "./api-assertions.js";
import { platformAssertions } from "./platform-assertions.js";
import { type SynthesizedStage, synthesizeStage } from "./synth.js";

/** Each with its test settings (stage-settings.ts), as `-c account=… -c region=… …` would give them. */
const RELEASE_STAGES = ["sandbox", "prod"] as const;
const synthesized = new Map<string, SynthesizedStage>();

function get(stage: string): SynthesizedStage {
  const found = synthesized.get(stage);
  if (!found) throw new Error(`${stage} was not synthesized`);
  return found;
}

beforeAll(() => {
  for (const stage of RELEASE_STAGES) {
    const result = synthesizeStage(stage, {}, { bundles: true });
    synthesized.set(stage, result);
    console.info(`${stage} synthesized in ${result.millis} ms`);
  }
});

afterAll(() => {
  for (const result of synthesized.values()) rmSync(result.outdir, { recursive: true, force: true });
});

for (const stage of RELEASE_STAGES) {
  describe(stage, () => {
    apiAssertions(stage, () => get(stage));
    platformAssertions(stage, () => get(stage));

    it("deploys no draft route: no search function, and the search API only answers 404", () => {
      const { stateless, statelessTemplate } = get(stage);
      expect(stateless.routeFunctions.has("persons-search")).toBe(false);
      expect(stateless.routeFunctions.has("employees-search")).toBe(false);
      expect(stateless.api("search").routeMethods).toEqual([]);
      const descriptions = Object.values(statelessTemplate.findResources("AWS::Lambda::Function")).map((fn) =>
        JSON.stringify(fn),
      );
      expect(descriptions.some((text) => text.includes("/search"))).toBe(false);
    });
  });
}

describe("prod", () => {
  it("protects the tables and stacks from deletion", () => {
    const { stateful, stateless, config } = get("prod");
    expect(config.tables.deletionProtection).toBe(true);
    expect(stateful.terminationProtection).toBe(true);
    expect(stateless.terminationProtection).toBe(true);
  });
});

describe("sandbox", () => {
  it("keeps the tables on stack deletion but allows deleting them", () => {
    const { statefulTemplate } = get("sandbox");
    for (const table of Object.values(statefulTemplate.findResources("AWS::DynamoDB::Table"))) {
      expect(table.DeletionPolicy).toBe("Retain");
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    }
  });
});
