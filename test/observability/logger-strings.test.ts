/** Every string of every service log line, a child's too, comes out with no character that hides or reorders it. */
import { logger, requestLogger } from "../../lib/observability/logger.js";
import { captureLogsPerTest } from "../http/output-capture.js";

const logs = captureLogsPerTest(logger);
const UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

describe("the service logger's lines", () => {
  it("escape bidi, C1 and separator characters in attributes, nested ones too", () => {
    logger.info("attributes", { text: "a\u202eb", nested: { list: ["\u2066x\u2069", "\u0085\u2028"] } });
    const [line] = logs.text().split("\n");
    expect(line).not.toMatch(UNSAFE);
    expect(JSON.parse(line ?? "")).toMatchObject({
      text: "a\\u202eb",
      nested: { list: ["\\u2066x\\u2069", "\\u0085\\u2028"] },
    });
  });

  it("escape them in a logged error's message and stack, which keeps its lines", () => {
    requestLogger({ requestId: "r-1" }).error("request failed", { error: new Error("bad \u202e id") });
    const [line] = logs.text().split("\n");
    expect(line).not.toMatch(UNSAFE);
    const { error, requestId } = JSON.parse(line ?? "") as {
      error: { message: string; stack: string };
      requestId: string;
    };
    expect(requestId).toBe("r-1");
    expect(error.message).toBe("bad \\u202e id");
    expect(error.stack).toContain("\n    at ");
  });
});
