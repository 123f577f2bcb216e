import {
  type CliDefinition,
  choiceOption,
  EXIT_FAILURE,
  EXIT_USAGE,
  failureLine,
  parseCommandLine,
  positiveNumberOption,
  quoted,
  required,
  runCli,
  UsageError,
  urlOption,
  wholeNumberOption,
} from "../../lib/cli/args.js";
import { generateApiKey } from "../../lib/keys/api-key.js";

const TOOL = {
  name: "tool",
  usage: "usage: tool [--out FILE] [--dry-run]",
  options: { out: { type: "string" }, "dry-run": { type: "boolean" } },
} as const satisfies CliDefinition<Record<string, { type: "string" | "boolean" }>>;

describe("parseCommandLine", () => {
  it("parses the declared flags and positionals when the tool takes them", () => {
    expect(parseCommandLine(TOOL, ["--out", "x.json", "--dry-run"])).toEqual({
      values: { out: "x.json", "dry-run": true },
      positionals: [],
    });
    expect(parseCommandLine({ ...TOOL, positionals: true }, ["list", "--out=y"])).toEqual({
      values: { out: "y" },
      positionals: ["list"],
    });
  });

  it("answers help for --help or -h anywhere before --, even among bad flags", () => {
    expect(parseCommandLine(TOOL, ["--help"])).toBe("help");
    expect(parseCommandLine(TOOL, ["-h"])).toBe("help");
    expect(parseCommandLine(TOOL, ["--nonsense", "--help"])).toBe("help");
    expect(() => parseCommandLine({ ...TOOL, positionals: true }, ["--", "--help"])).not.toThrow();
  });

  it("refuses unknown flags, missing values and stray positionals in one line naming them", () => {
    expect(() => parseCommandLine(TOOL, ["--outt", "x"])).toThrow(new UsageError("Unknown option '--outt'"));
    expect(() => parseCommandLine(TOOL, ["--out"])).toThrow(
      new UsageError("Option '--out <value>' argument missing"),
    );
    expect(() => parseCommandLine(TOOL, ["extra"])).toThrow(new UsageError("Unexpected argument 'extra'"));
  });
});

describe("value parsers", () => {
  it("read a whole number within its range, undefined when absent", () => {
    expect(wholeNumberOption("records", "2000", { min: 1 })).toBe(2000);
    expect(wholeNumberOption("records", undefined, { min: 1 })).toBeUndefined();
    expect(wholeNumberOption("seed", "0", { min: 0, max: 9 })).toBe(0);
    expect(wholeNumberOption("seed", "9", { min: 0, max: 9 })).toBe(9);
  });

  it("refuse any other whole number, naming the flag, the rule and the value", () => {
    for (const value of ["", "1.5", "-3", "1e3", "ten", " 7", "9007199254740993"]) {
      expect(() => wholeNumberOption("records", value, { min: 1 })).toThrow(
        new UsageError(`--records must be a whole number ≥ 1, got ${JSON.stringify(value)}`),
      );
    }
    expect(() => wholeNumberOption("seed", "10", { min: 0, max: 9 })).toThrow(
      '--seed must be a whole number from 0 to 9, got "10"',
    );
  });

  it("read positive decimals and refuse zero, signs and exponents", () => {
    expect(positiveNumberOption("rate", "0.5")).toBe(0.5);
    expect(positiveNumberOption("rate", "10")).toBe(10);
    expect(positiveNumberOption("rate", undefined)).toBeUndefined();
    for (const value of ["0", "0.0", "-1", "+1", "1e2", ".5", "Infinity", "NaN", ""]) {
      expect(() => positiveNumberOption("rate", value)).toThrow(
        new UsageError(`--rate must be a positive number, got ${JSON.stringify(value)}`),
      );
    }
  });

  it("read one of a list of choices", () => {
    expect(choiceOption("engine", "ddblocal", ["dynalite", "ddblocal"])).toBe("ddblocal");
    expect(choiceOption("engine", undefined, ["dynalite"])).toBeUndefined();
    expect(() => choiceOption("engine", "Dynalite", ["dynalite", "ddblocal"])).toThrow(
      new UsageError('--engine must be one of dynalite, ddblocal, got "Dynalite"'),
    );
  });

  it("read an http(s) URL", () => {
    expect(urlOption("endpoint", "http://127.0.0.1:8000")).toBe("http://127.0.0.1:8000");
    for (const value of ["127.0.0.1:8000", "ftp://x", "nope"]) {
      expect(() => urlOption("endpoint", value)).toThrow(UsageError);
    }
  });

  it("require a value", () => {
    expect(required("out", "x")).toBe("x");
    expect(() => required("out", undefined)).toThrow(new UsageError("--out is required"));
    expect(() => required("out", "")).toThrow(new UsageError("--out is required"));
  });

  it("quote a caller's value with keys redacted and cut short", () => {
    const key = generateApiKey("live");
    expect(quoted(key)).toBe('"pd_…[redacted]"');
    expect(quoted("x".repeat(200))).toBe(JSON.stringify(`${"x".repeat(60)}…`));
  });
});

describe("failureLine", () => {
  it("is the message, never the stack", () => {
    expect(failureLine(new Error("connect ECONNREFUSED 127.0.0.1:1"))).toBe(
      "connect ECONNREFUSED 127.0.0.1:1",
    );
  });

  it("falls back to the error code, and joins an AggregateError's distinct messages", () => {
    expect(failureLine(Object.assign(new Error(""), { code: "ECONNREFUSED" }))).toBe("ECONNREFUSED");
    const both = new AggregateError([
      new Error("connect ECONNREFUSED ::1:1"),
      new Error("connect ECONNREFUSED ::1:1"),
      new Error("b"),
    ]);
    expect(failureLine(both)).toBe("connect ECONNREFUSED ::1:1; b");
  });
});

describe("runCli", () => {
  const run = async (
    args: string[],
    main: () => Promise<void> = async () => {},
    describe?: (e: unknown) => string | undefined,
  ) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(TOOL, main, {
      args,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      ...(describe ? { describeFailure: describe } : {}),
    });
    return { code, stdout: out.join(""), stderr: err.join("") };
  };

  it("prints the usage on stdout for --help, exit 0, without running the tool", async () => {
    let ran = false;
    const main = async () => {
      ran = true;
    };
    expect(await run(["--help"], main)).toEqual({ code: 0, stdout: `${TOOL.usage}\n`, stderr: "" });
    expect(ran).toBe(false);
  });

  it("prints one line and the usage on stderr for a bad call, exit 2", async () => {
    expect(await run(["--bogus"])).toEqual({
      code: EXIT_USAGE,
      stdout: "",
      stderr: `tool: Unknown option '--bogus'\n\n${TOOL.usage}\n`,
    });
    const refused = await run([], async () => {
      throw new UsageError("--out is required");
    });
    expect(refused).toMatchObject({ code: 2, stderr: `tool: --out is required\n\n${TOOL.usage}\n` });
  });

  it("prints one line for a failure, exit 1, and no stack or usage", async () => {
    const failed = await run([], async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:1");
    });
    expect(failed).toEqual({
      code: EXIT_FAILURE,
      stdout: "",
      stderr: "tool: connect ECONNREFUSED 127.0.0.1:1\n",
    });
    const described = await run(
      [],
      async () => {
        throw new RangeError("bad record");
      },
      (error) => (error instanceof RangeError ? `refused: ${error.message}` : undefined),
    );
    expect(described.stderr).toBe("tool: refused: bad record\n");
  });

  it("prints what a caller or a file wrote with its control and bidirectional characters escaped, on one line", async () => {
    const failed = await run([], async () => {
      throw new Error("no file 'a\x1b[2J\r\x07\u202eb\nc'");
    });
    expect(failed.stderr).toBe("tool: no file 'a\\u001b[2J\\u000d\\u0007\\u202eb\\u000ac'\n");
    const refused = await run([], async () => {
      throw new UsageError(`bad value ${quoted("\u2066x\x85")}`);
    });
    expect(refused.stderr.split("\n")[0]).toBe('tool: bad value "\\u2066x\\u0085"');
  });

  it("never prints a key the caller gave, even inside an unknown flag", async () => {
    const key = generateApiKey("live");
    const { stderr } = await run([`--${key}`]);
    expect(stderr).not.toContain(key.slice(8));
    expect(stderr.split("\n")[0]).toBe("tool: Unknown option '--pd_…[redacted]'");
  });
});
