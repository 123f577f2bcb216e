/** The `npm start` banner: where the server is and where its reference page is. */
import { startupBanner } from "../../lib/local/banner.js";

const banner = (url: string) =>
  startupBanner({
    url,
    stage: "local",
    engine: "dynalite at http://127.0.0.1:1",
    records: [],
    directory: { persons: 0, employees: 0, file: "data.json" },
  });

describe("the startup banner", () => {
  it("names the API reference page and the OpenAPI document of this server", () => {
    const lines = banner("http://127.0.0.1:4123").split("\n");
    expect(lines[0]).toBe("listening on http://127.0.0.1:4123");
    expect(lines).toContain(
      "API reference: http://127.0.0.1:4123/docs (the OpenAPI document: http://127.0.0.1:4123/openapi.json)",
    );
  });
});
