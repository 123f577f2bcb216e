/**
 * Pages through every person of one company and prints one line per person, then a count.
 *
 *   PARTNER_API_KEY=pd_test_… BASE_URL=http://127.0.0.1:3000 COMPANY_ID=acme-home-care \
 *     npx tsx lib/client/examples/page-all-persons.ts
 */
import { PartnerDirectoryClient } from "../index.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`set ${name}`);
    process.exit(2);
  }
  return value;
}

const client = new PartnerDirectoryClient({
  baseUrl: required("BASE_URL"),
  apiKey: required("PARTNER_API_KEY"),
});
const companyId = required("COMPANY_ID");

let count = 0;
// 100 per page: the fewest requests. Each person comes with all their employments the key may read.
for await (const person of client.allPersons({ companyId, limit: 100 })) {
  const here = person.employments.find((employment) => employment.companyId === companyId);
  const name = [here?.demographics.firstName, here?.demographics.lastName].filter(Boolean).join(" ");
  console.log(`${person.id}\t${person.createdAt}\t${name}\t${person.employments.length} employment(s)`);
  count++;
}
console.log(`${count} person(s) in ${companyId}`);
