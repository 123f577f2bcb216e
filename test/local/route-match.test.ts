import { routeMatcher } from "../../lib/local/route-match.js";
import { ROUTES, routesForStage } from "../../lib/routes.js";

const match = routeMatcher(ROUTES);

describe("routeMatcher", () => {
  it.each([
    ["POST", "/v1/persons/search", "persons-search"],
    ["POST", "/v1/employees/search", "employees-search"],
    ["GET", "/v1/companies/acme/hello", "companies-hello"],
  ])("finds %s %s", (method, path, id) => {
    expect(match(method, path)).toMatchObject({ kind: "route", route: { id } });
  });

  it("gives the greeting its company id", () => {
    expect(match("GET", "/v1/companies/acme-1.b_c/hello")).toEqual({
      kind: "route",
      route: ROUTES.find((route) => route.id === "companies-hello"),
      pathParameters: { companyId: "acme-1.b_c" },
    });
    expect(match("POST", "/v1/persons/search")).toMatchObject({ pathParameters: {} });
  });

  it.each([
    ["acme%2Dx", "acme-x"],
    ["a%20b", "a b"],
    ["a%2Fb", "a/b"],
    ["%C3%A9", "é"],
    ["100%25", "100%"],
    ["%E0%A4%A", "%E0%A4%A"],
    ["50%", "50%"],
  ])("decodes the path parameter %s as %j (left as is when not decodable)", (segment, decoded) => {
    expect(match("GET", `/v1/companies/${segment}/hello`)).toMatchObject({
      kind: "route",
      pathParameters: { companyId: decoded },
    });
  });

  it("matches an empty segment, so the handler can refuse it", () => {
    expect(match("GET", "/v1/companies//hello")).toMatchObject({
      kind: "route",
      pathParameters: { companyId: "" },
    });
  });

  it.each([
    ["GET", "/v1/persons/search", "/v1/persons/search", ["POST"]],
    ["PUT", "/v1/persons/search", "/v1/persons/search", ["POST"]],
    ["DELETE", "/v1/employees/search", "/v1/employees/search", ["POST"]],
    ["POST", "/v1/companies/acme/hello", "/v1/companies/{companyId}/hello", ["GET"]],
    ["PATCH", "/v1/companies//hello", "/v1/companies/{companyId}/hello", ["GET"]],
  ])(
    "answers method_not_allowed (405) for %s %s, naming the template and the methods it serves",
    (method, path, resourcePath, allowed) => {
      expect(match(method, path)).toEqual({ kind: "method_not_allowed", resourcePath, allowed });
    },
  );

  it("lists every method a path serves", () => {
    const persons = ROUTES.find((route) => route.id === "persons-search");
    if (!persons) throw new Error("no persons-search route");
    const twoMethods = routeMatcher([...ROUTES, { ...persons, method: "GET" }]);
    expect(twoMethods("DELETE", "/v1/persons/search")).toEqual({
      kind: "method_not_allowed",
      resourcePath: "/v1/persons/search",
      allowed: ["POST", "GET"],
    });
  });

  it.each([
    ["POST", "/"],
    ["POST", "/v1/persons/search/"],
    ["POST", "/v1/persons"],
    ["POST", "/v2/persons/search"],
    ["POST", "/V1/persons/search"],
    ["GET", "/v1/companies/a/b/hello"],
    ["GET", "/v1/companies/acme/hello/"],
    ["GET", "/v1/companies/acme"],
    ["GET", "/openapi.json"],
  ])("answers not_found (404) for %s %s", (method, path) => {
    expect(match(method, path)).toEqual({ kind: "not_found" });
  });

  it("serves the search paths only where draft routes are enabled", () => {
    for (const stage of ["sandbox", "prod"]) {
      const staged = routeMatcher(routesForStage(stage));
      expect(staged("POST", "/v1/persons/search")).toEqual({ kind: "not_found" });
      expect(staged("GET", "/v1/employees/search")).toEqual({ kind: "not_found" });
      expect(staged("GET", "/v1/companies/acme/hello")).toMatchObject({ kind: "route" });
    }
    for (const stage of ["local", "dev"]) {
      expect(routeMatcher(routesForStage(stage))("POST", "/v1/persons/search")).toMatchObject({
        kind: "route",
      });
    }
  });
});
