import { terminalJson, terminalText, writeJson, writeLine, writeLines } from "../../lib/cli/terminal-text.js";

/** Every character a terminal acts on or reorders, as the tools must never print it. */
const HOSTILE = [
  "\x1b",
  "\r",
  "\n",
  "\t",
  "\x07",
  "\x00",
  "\x7f",
  "\x85",
  "\x9b",
  "\u202a",
  "\u202e",
  "\u2066",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u200b",
  "\ufeff",
  "\u2028",
  "\u2029",
  "\u{e0001}",
  "\ud800",
  "\udfff",
];
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/u;

describe("terminalText", () => {
  it("shows controls, bidirectional and other format characters, separators and lone surrogates as escapes", () => {
    expect(terminalText("Acme\x1b[31m\r\x07\u202eevil")).toBe("Acme\\u001b[31m\\u000d\\u0007\\u202eevil");
    expect(terminalText("a\nb\tc\x7f\x85")).toBe("a\\u000ab\\u0009c\\u007f\\u0085");
    expect(terminalText("\u2066x\u2069\u200e\u2028")).toBe("\\u2066x\\u2069\\u200e\\u2028");
    expect(terminalText("lone \ud800 and \udc00")).toBe("lone \\ud800 and \\udc00");
    expect(terminalText("tag \u{e0001}")).toBe("tag \\udb40\\udc01");
    for (const character of HOSTILE) expect(terminalText(`x${character}y`)).not.toMatch(RAW);
  });

  it("leaves printable text as it is: letters of any script, marks, emoji, spaces, backslashes", () => {
    const printable = "Zoë Ñúñez 李小龍 محمد 😀 e\u0301 a\u00a0b C:\\path \\u202e";
    expect(terminalText(printable)).toBe(printable);
  });
});

describe("terminalJson", () => {
  it("is JSON that reads back as the value, with every such character as \\u…", () => {
    const value = { partner: `Acme${HOSTILE.join("")}`, "field\u202e": ["\u2028", "ok"] };
    const json = terminalJson(value);
    expect(json).not.toMatch(RAW);
    expect(json).toContain("\\u202e");
    expect(json).toContain("\\u2028");
    expect(json).toContain("\\u0085");
    expect(json).toContain("\\u001b");
    expect(JSON.parse(json)).toEqual(value);
  });

  it("keeps the lines of pretty JSON, and escapes within them", () => {
    expect(terminalJson({ a: "\u202e" }, 2)).toBe('{\n  "a": "\\u202e"\n}');
  });
});

describe("writeLine and writeJson", () => {
  it("write one escaped line, or escaped JSON, each ending in a newline", () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) };
    writeLine(stream, "line\nbreak\u202e");
    writeJson(stream, { name: "\u202e" });
    expect(written).toEqual(["line\\u000abreak\\u202e\n", '{"name":"\\u202e"}\n']);
  });
});

describe("writeLines", () => {
  it("keeps a report's own line breaks and escapes everything else in each line", () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) };
    writeLines(stream, "report\n\u001b[2Jname: Acme\u202e\r\n");
    writeLines(stream, "\nlast");
    expect(written).toEqual(["report\n\\u001b[2Jname: Acme\\u202e\\u000d\n", "\nlast\n"]);
  });
});
