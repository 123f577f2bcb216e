/**
 * `cdk diff` must not churn: the same sources give the same Lambda assets wherever the cloud
 * assembly is written. Compares prod as the other files share it (synth.ts) with prod synthesized
 * here (real esbuild bundling) into a folder of another depth: each function's asset hash, and the
 * source map in its asset.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { AssetStaging } from "aws-cdk-lib";
import { addStage, createApp } from "../../infra/stage-stacks.js";
import { ROUTES } from "../../lib/routes.js";
import { settingsFor } from "./stage-settings.js";
import { synthesizeStage } from "./synth.js";

const root = mkdtempSync(join(tmpdir(), "asset-hashes-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface LambdaTemplate {
  Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
}

/** Each Lambda function's logical id → its asset's S3 key (`<asset hash>.zip`). */
function synthLambdaAssets(outdir: string): Record<string, string> {
  // Otherwise a synthesis after the shared one, in this process, would reuse its bundles.
  AssetStaging.clearAssetHashCache();
  const app = createApp(outdir);
  const { stateless } = addStage(app, "prod", { ...settingsFor("prod"), env: {} });
  app.synth();
  return lambdaAssets(
    JSON.parse(readFileSync(join(outdir, `${stateless.stackName}.template.json`), "utf8")) as LambdaTemplate,
  );
}

function lambdaAssets(template: LambdaTemplate): Record<string, string> {
  return Object.fromEntries(
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === "AWS::Lambda::Function")
      .map(([id, resource]) => [id, String(resource.Properties.Code?.S3Key)]),
  );
}

describe("Lambda asset hashes", () => {
  const deep = join(root, "x", "y", "z", "w", "b");
  let shallowAssets: Record<string, string> = {};
  let deepAssets: Record<string, string> = {};

  beforeAll(() => {
    shallowAssets = lambdaAssets(
      synthesizeStage("prod", {}, { bundles: true }).statelessTemplate.toJSON() as LambdaTemplate,
    );
    deepAssets = synthLambdaAssets(deep);
  });

  it("do not depend on how deep the output folder is", () => {
    // The authorizer, the released routes' functions (prod serves no draft) and the ingest's.
    const released = ROUTES.filter((route) => !route.draft);
    expect(Object.keys(shallowAssets)).toHaveLength(released.length + 2);
    for (const key of Object.values(shallowAssets)) expect(key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect(deepAssets).toEqual(shallowAssets);
  });

  it("come from source maps whose sources are repository paths", () => {
    for (const key of Object.values(deepAssets)) {
      const map = JSON.parse(
        readFileSync(join(deep, `asset.${key.replace(/\.zip$/, "")}`, "index.mjs.map"), "utf8"),
      ) as { sources: string[] };
      expect(map.sources.length).toBeGreaterThan(0);
      for (const source of map.sources) {
        expect(isAbsolute(source) || source.startsWith("..")).toBe(false);
      }
      expect(map.sources.some((source) => /^functions\/[a-z-]+\.ts$/.test(source))).toBe(true);
      expect(map.sources.some((source) => source.startsWith("node_modules/"))).toBe(true);
    }
  });
});
