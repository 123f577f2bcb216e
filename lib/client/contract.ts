/**
 * Every type the client takes from the rest of the repository: the route table's requests and
 * answers, the records in them, the error codes. Type-only, so the client bundles none of it; a path
 * or schema that changes there fails to compile here. The package build (lib/cli/client-declarations.ts)
 * writes each alias out as the plain type it resolves to, so a partner's compiler needs no Zod.
 * Only type aliases belong here: the build refuses anything else.
 */
import type { ApiEmployee, ApiPagination, ApiPerson } from "../directory/api-schema.js";
import type { ErrorCode as HttpErrorCode } from "../http/errors.js";
import type { RouteAnswerOutput, RouteBodyInput } from "../routes.js";

/** The body of `POST /v1/persons/search`. */
export type PersonsSearchRequest = RouteBodyInput<"persons-search">;
/** The body of `POST /v1/employees/search`. */
export type EmployeesSearchRequest = RouteBodyInput<"employees-search">;
/** One page of persons. */
export type PersonsSearchResponse = RouteAnswerOutput<"persons-search">;
/** One page of employee records. */
export type EmployeesSearchResponse = RouteAnswerOutput<"employees-search">;
/** The answer of `GET /v1/companies/{companyId}/hello`. */
export type Greeting = RouteAnswerOutput<"companies-hello">;
/** The answer of `GET /v1/key`: what the calling key may do. */
export type KeyDescription = RouteAnswerOutput<"key-describe">;
/** A person, with every employment the key may read. */
export type Person = ApiPerson;
/** One employee record of one company. */
export type Employee = ApiEmployee;
/** A page's place in the whole result. */
export type Pagination = ApiPagination;
/** The contract's `error` values. */
export type ErrorCode = HttpErrorCode;
