/**
 * The API reference page end to end: the local service, and Chromium (the build in the npm package
 * @sparticuz/chromium, driven by playwright-core) opening /docs. The page must render the three
 * routes from /openapi.json, show example requests and "Test Request" against this server, send a
 * real try-it request here, make no request off this machine, and log no error. Screenshots go to
 * test-output/.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { generateApiKey } from "../../lib/keys/api-key.js";
import { parseKeysFile } from "../../lib/local/keys-file.js";
import { type LocalService, startLocalService } from "../../lib/local/service.js";
import { openApiDocument } from "../../lib/openapi/document.js";
import { ROUTES } from "../../lib/routes.js";
import { CHROMIUM_ARGS, chromiumExecutable } from "./chromium.js";

const OUTPUT = resolve("test-output");
const SCREENSHOT = join(OUTPUT, "reference-page.png");
const TRY_IT_SCREENSHOT = join(OUTPUT, "reference-page-try-it.png");
const HELLO = "Hello from the Partner Directory Search Service";

const KEY = generateApiKey("test");
const { records } = parseKeysFile(
  JSON.stringify({
    keys: [{ key: KEY, partner: "Docs", operations: ["companies.hello"], companies: ["acme-home-care"] }],
  }),
  "reference page keys",
);

/** Each route's summary and path, as openapi.json has them (the page renders that document). */
const paths = openApiDocument().paths ?? {};
const OPERATIONS = ROUTES.map((route) => {
  const summary = paths[route.path]?.[route.method === "GET" ? "get" : "post"]?.summary;
  if (!summary) throw new Error(`openapi.json has no summary for ${route.method} ${route.path}`);
  return { method: route.method, path: route.path, summary };
});

let service: LocalService;
let browser: Browser;

beforeAll(async () => {
  service = await startLocalService({ port: 0, stage: "local", keys: records });
  browser = await chromium.launch({ executablePath: await chromiumExecutable(), args: CHROMIUM_ARGS });
  mkdirSync(OUTPUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

interface Recorded {
  context: BrowserContext;
  page: Page;
  requests: string[];
  offMachine: string[];
  errors: string[];
}

/** A fresh context and page recording every request and every console or page error. */
async function openPage(): Promise<Recorded> {
  const origin = new URL(service.url).origin;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(20_000);
  const recorded: Recorded = {
    context,
    page: await context.newPage(),
    requests: [],
    offMachine: [],
    errors: [],
  };
  const local = (url: string) =>
    url.startsWith("data:") || url.startsWith("blob:") || new URL(url).origin === origin;
  // Anything for elsewhere is recorded and refused, so a failing run leaks nothing either.
  await context.route(
    (url) => !local(url.href),
    (route) => {
      recorded.offMachine.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  context.on("request", (request) => {
    recorded.requests.push(request.url());
    if (!local(request.url())) recorded.offMachine.push(request.url());
  });
  recorded.page.on("console", (message) => {
    if (message.type() === "error") recorded.errors.push(`console: ${message.text()}`);
  });
  recorded.page.on("pageerror", (error) => recorded.errors.push(`page: ${error.message}`));
  return recorded;
}

function expectNothingOffMachineAndNoErrors(recorded: Recorded): void {
  expect(recorded.requests.length).toBeGreaterThan(0);
  expect(recorded.offMachine).toEqual([]);
  expect(recorded.errors).toEqual([]);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The sidebar entry of an operation (its accessible name is the summary, then the method). */
const sidebarEntry = (page: Page, summary: string) =>
  page.getByRole("link", { name: new RegExp(`^${escaped(summary)}`) }).first();

/** Opens the page and waits until Scalar has rendered the document: every operation in the sidebar. */
async function openReferencePage(path = "/docs"): Promise<Recorded> {
  const recorded = await openPage();
  const response = await recorded.page.goto(`${service.url}${path}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-request-id"]).toBeTruthy();
  for (const { summary } of OPERATIONS) await sidebarEntry(recorded.page, summary).waitFor();
  return recorded;
}

/** Goes to an operation through the sidebar; Scalar renders sections as they come into view. */
async function showOperation(page: Page, summary: string) {
  await sidebarEntry(page, summary).click();
  const heading = page.getByRole("heading", { name: summary }).first();
  await heading.waitFor();
  return heading;
}

describe("the API reference page in Chromium", () => {
  it("renders every route of openapi.json with its summary and path, from this server only", async () => {
    const recorded = await openReferencePage();
    const { page } = recorded;
    await expect(page.title()).resolves.toMatch(/Partner Directory Search Service/);
    await expect(
      page.getByRole("heading", { name: "Partner Directory Search Service" }).isVisible(),
    ).resolves.toBe(true);
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    console.log(`reference page screenshot: ${SCREENSHOT}`);
    for (const { method, path, summary } of OPERATIONS) {
      await expect(sidebarEntry(page, summary).innerText()).resolves.toMatch(
        new RegExp(`\\b${method}\\s*$`, "i"),
      );
      await showOperation(page, summary);
      const text = await page.locator("#app").innerText();
      expect(text).toContain(path);
    }
    // Scalar's bundle and the document both came from this server.
    expect(recorded.requests).toEqual(
      expect.arrayContaining([
        `${service.url}/docs`,
        expect.stringMatching(new RegExp(`^${service.url}/docs/scalar\\.js\\?v=[0-9a-f]{16}$`)),
        `${service.url}/openapi.json`,
      ]),
    );
    expectNothingOffMachineAndNoErrors(recorded);
    await recorded.context.close();
  });

  it('shows, per route, a curl example against this server and a "Test Request" control', async () => {
    const recorded = await openReferencePage("/docs/");
    const { page } = recorded;
    const concretePath = (path: string) => path.replace("{companyId}", "acme-home-care");
    for (const { method, path, summary } of OPERATIONS) {
      await showOperation(page, summary);
      const button = page.getByRole("button", { name: `Test Request (${method.toLowerCase()} ${path})` });
      await button.waitFor();
      const example = page
        .locator("pre, code")
        .filter({ hasText: new RegExp(`^curl ${escaped(`${service.url}${concretePath(path)}`)}\\b`) })
        .first();
      await example.waitFor();
      if (method === "POST") await expect(example.innerText()).resolves.toContain("--request POST");
    }
    expectNothingOffMachineAndNoErrors(recorded);
    await recorded.context.close();
  });

  it('sends a "Test Request" for the greeting to this server and shows its answer', async () => {
    const recorded = await openReferencePage();
    const { page } = recorded;
    await showOperation(page, "Hello world");
    await page.getByRole("button", { name: "Test Request (get /v1/companies/{companyId}/hello)" }).click();
    const client = page.getByRole("dialog");
    await client.waitFor();
    await client.getByPlaceholder("Token").fill(KEY);
    const answered = page.waitForResponse(`${service.url}/v1/companies/acme-home-care/hello`);
    await client.getByRole("button", { name: /^Send get request to / }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${KEY}`);
    expect(response.headers()["x-request-id"]).toBeTruthy();
    await client.getByText(HELLO).first().waitFor();
    await client.getByText("200 OK").first().waitFor();
    await page.screenshot({ path: TRY_IT_SCREENSHOT, fullPage: false });
    console.log(`try-it screenshot: ${TRY_IT_SCREENSHOT}`);
    expectNothingOffMachineAndNoErrors(recorded);
    await recorded.context.close();
  });
});
