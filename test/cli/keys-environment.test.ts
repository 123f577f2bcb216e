/** The keys CLI will not issue a test key for prod: the authorizer would refuse it (lib/keys/api-key.ts). */
import { runTool, STACK_FRAME } from "./run-tool.js";

it("refuses `--env test --stage prod` as a bad call, before reaching AWS", async () => {
  const outcome = await runTool("lib/cli/keys.ts", [
    "create",
    ...["--partner", "Acme", "--operations", "companies.hello", "--companies", "acme"],
    ...["--env", "test", "--stage", "prod"],
  ]);
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).toMatch(/^keys: --env test keys are refused on prod: issue a live key\n/);
  expect(outcome.stderr).not.toMatch(STACK_FRAME);
});
