/** GET /v1/companies/{companyId}/hello: checks connectivity and access to one company. */
import { greetCompany } from "../lib/greeting/greet-company.js";
import { httpRoute } from "../lib/http/pipeline.js";

export const handler = httpRoute("companies-hello", async ({ principal, pathParameters }) =>
  greetCompany(principal, pathParameters.companyId),
);
