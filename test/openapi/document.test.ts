import { readFileSync } from "node:fs";
import { openApiDocument } from "../../lib/openapi/document.js";
import { ROUTES } from "../../lib/routes.js";

type Operation = {
  operationId: string;
  servers: { variables?: { stage?: { enum?: string[] } } }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  "x-draft"?: boolean;
};

const document = openApiDocument();
const operationOf = (path: string, method: string) =>
  (document.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];

/** The schema of a response header, through its reference into components.headers. */
function headerSchema(header: unknown): unknown {
  const ref = (header as { $ref?: string } | undefined)?.$ref ?? "";
  const name = /^#\/components\/headers\/(\w+)$/.exec(ref)?.[1] ?? "";
  const declared = (document.components?.headers as Record<string, { schema?: unknown }> | undefined)?.[name];
  return declared?.schema;
}

describe("the OpenAPI document", () => {
  it("is what openapi.json holds (run `npm run openapi` after changing a schema or route)", () => {
    const committed: unknown = JSON.parse(
      readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"),
    );
    expect(JSON.parse(JSON.stringify(document))).toEqual(committed);
  });

  it("carries the package's version", () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(document.info.version).toBe(version);
  });

  it("describes every route of the route table, with the bearer scheme required", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    for (const route of ROUTES) expect(operationOf(route.path, route.method)).toBeDefined();
  });

  it("declares x-request-id, Cache-Control and nosniff on every response, Retry-After on 429, WWW-Authenticate on 401", () => {
    for (const route of ROUTES) {
      const operation = operationOf(route.path, route.method);
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const headers = response.headers ?? {};
        expect(headerSchema(headers["x-request-id"])).toEqual({ type: "string" });
        expect(headerSchema(headers["Cache-Control"])).toMatchObject({ const: "no-store" });
        expect(headerSchema(headers["X-Content-Type-Options"])).toMatchObject({ const: "nosniff" });
        expect(headers["Retry-After"] !== undefined).toBe(status === "429");
        expect(headers["WWW-Authenticate"] !== undefined).toBe(status === "401");
        if (status === "401")
          expect(headerSchema(headers["WWW-Authenticate"])).toMatchObject({ const: "Bearer" });
      }
      expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(
        expect.arrayContaining(["200", "401", "429", "500"]),
      );
    }
  });

  it("says which operation each route needs; a route that needs none answers no 403", () => {
    for (const route of ROUTES) {
      const operation = operationOf(route.path, route.method) as Operation & { description: string };
      const needed =
        route.operation === null
          ? "**Key**: any valid key; the route needs no operation."
          : `**Key**: needs the operation \`${route.operation}\`.`;
      expect(operation.description.endsWith(needed)).toBe(true);
      expect("403" in operation.responses).toBe(route.operation !== null);
    }
    expect(ROUTES.some((route) => route.operation === null)).toBe(true);
  });

  it("marks the search routes as drafts served only in dev, and the greeting in every stage", () => {
    for (const route of ROUTES) {
      const operation = operationOf(route.path, route.method);
      expect(Boolean(operation?.["x-draft"])).toBe(route.draft);
      expect(operation?.servers[0]?.variables?.stage?.enum).toEqual(
        route.draft ? ["dev"] : ["dev", "sandbox", "prod"],
      );
    }
  });
});
