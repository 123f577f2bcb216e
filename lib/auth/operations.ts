/**
 * The operations a key may be granted, one per route (lib/routes.ts binds each route to its
 * operation). Kept apart from the route table so that the authorizer and the key tools, which need
 * only these names, never bundle the routes' schemas.
 */
export const OPERATIONS = ["persons.search", "employees.search", "companies.hello"] as const;
export type Operation = (typeof OPERATIONS)[number];
