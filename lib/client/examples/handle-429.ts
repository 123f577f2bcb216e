/**
 * Sends more requests than the key's rate allows and shows the two ways to handle 429:
 * the client's own retries (they wait `Retry-After` plus jitter), and, when retries are spent,
 * a PartnerDirectoryError with `status` 429 and `retryAfterSeconds` to schedule the next try.
 *
 *   PARTNER_API_KEY=pd_test_… BASE_URL=http://127.0.0.1:3000 COMPANY_ID=acme-home-care \
 *     npx tsx lib/client/examples/handle-429.ts
 */
import { PartnerDirectoryClient, PartnerDirectoryError } from "../index.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`set ${name}`);
    process.exit(2);
  }
  return value;
}

const baseUrl = required("BASE_URL");
const apiKey = required("PARTNER_API_KEY");
const companyId = required("COMPANY_ID");
const requests = Number(process.env.REQUESTS ?? 6);

// 1. Patient: retries 429s, waiting as told. Every request ends in a greeting.
const patient = new PartnerDirectoryClient({
  baseUrl,
  apiKey,
  retry: { maxAttempts: 10 },
  onRetry: ({ attempt, delayMs, error }) => {
    const status = error instanceof PartnerDirectoryError ? error.status : "network error";
    console.log(`attempt ${attempt} got ${status}; retrying in ${delayMs} ms`);
  },
});
const answers = await Promise.all(Array.from({ length: requests }, () => patient.hello(companyId)));
console.log(`patient client: ${answers.length} of ${requests} requests answered`);

// 2. Impatient: no retries. A 429 comes back as an error saying when to come back.
const impatient = new PartnerDirectoryClient({ baseUrl, apiKey, retry: { maxAttempts: 1 } });
let answered = 0;
let limited = 0;
for (let i = 0; i < requests; i++) {
  try {
    await impatient.hello(companyId);
    answered++;
  } catch (error) {
    if (!(error instanceof PartnerDirectoryError) || error.status !== 429) throw error;
    limited++;
    console.log(
      `rate limited (request ${error.requestId}); come back in ${error.retryAfterSeconds ?? "a few"} s`,
    );
  }
}
console.log(`impatient client: ${answered} answered, ${limited} rate limited`);
