import { parseOptions, UsageError, wholeOption } from "../../lib/cli/args.js";

describe("command-line flags", () => {
  it("reads a whole number, its default when absent", () => {
    expect(wholeOption("records", "2000", 10, 1)).toBe(2000);
    expect(wholeOption("records", undefined, 10, 1)).toBe(10);
    expect(wholeOption("seed", "0", 1, 0)).toBe(0);
  });

  it("refuses anything else with a UsageError naming the flag and the rule", () => {
    for (const value of ["", "1.5", "-3", "1e3", "ten", " 7", true, "9007199254740993"]) {
      expect(() => wholeOption("records", value, 10, 1)).toThrow(
        new UsageError("--records must be a whole number ≥ 1"),
      );
    }
    expect(() => wholeOption("duration", "7", 30, 8)).toThrow("--duration must be a whole number ≥ 8");
  });

  it("parses the declared options and refuses unknown or malformed ones as a UsageError", () => {
    const options = { out: { type: "string" }, help: { type: "boolean", short: "h" } } as const;
    expect(parseOptions(options, ["--out", "x.json", "-h"])).toEqual({ out: "x.json", help: true });
    expect(() => parseOptions(options, ["--outt", "x"])).toThrow(UsageError);
    expect(() => parseOptions(options, ["--out"])).toThrow(UsageError);
  });
});
