import { ConfigError, DEMO_DATA_FILE, DEMO_KEYS_FILE, localConfigFromEnv } from "../../lib/local/config.js";

describe("localConfigFromEnv", () => {
  it("defaults to port 3000, stage local, dynalite and the demo files", () => {
    expect(localConfigFromEnv({})).toEqual({
      port: 3000,
      stage: "local",
      engine: "dynalite",
      keysFile: DEMO_KEYS_FILE,
      dataFile: DEMO_DATA_FILE,
      usingDemoKeys: true,
    });
  });

  it.each([
    ["0", 0],
    ["1", 1],
    ["8080", 8080],
    ["65535", 65_535],
  ])("accepts PORT=%s", (text, port) => {
    expect(localConfigFromEnv({ PORT: text }).port).toBe(port);
  });

  it.each([
    ["65536"],
    ["70000"],
    ["-1"],
    ["abc"],
    ["3000abc"],
    ["30.5"],
    ["1e3"],
    ["0x50"],
    [" 3000"],
    ["3000 "],
  ])("refuses PORT=%j, naming PORT and the value", (text) => {
    expect(() => localConfigFromEnv({ PORT: text })).toThrow(ConfigError);
    expect(() => localConfigFromEnv({ PORT: text })).toThrow(
      `PORT must be a port number (0-65535), got "${text}"`,
    );
  });

  it.each([["local"], ["dev"], ["sandbox"], ["prod"]])("accepts STAGE=%s", (stage) => {
    expect(localConfigFromEnv({ STAGE: stage }).stage).toBe(stage);
  });

  it.each([["staging"], ["Prod"], ["PROD"], ["production"], [" local"]])(
    "refuses STAGE=%j, naming STAGE",
    (stage) => {
      expect(() => localConfigFromEnv({ STAGE: stage })).toThrow(ConfigError);
      expect(() => localConfigFromEnv({ STAGE: stage })).toThrow(
        `STAGE must be one of local, dev, sandbox, prod; got "${stage}"`,
      );
    },
  );

  it("takes the engine and files from the environment", () => {
    const config = localConfigFromEnv({
      DYNAMODB_ENGINE: "ddblocal",
      KEYS_FILE: "/k.json",
      DATA_FILE: "/d.json",
    });
    expect(config).toMatchObject({
      engine: "ddblocal",
      keysFile: "/k.json",
      dataFile: "/d.json",
      usingDemoKeys: false,
    });
    expect(() => localConfigFromEnv({ DYNAMODB_ENGINE: "sqlite" })).toThrow("DYNAMODB_ENGINE");
  });
});
