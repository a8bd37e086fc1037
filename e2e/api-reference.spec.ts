import path from "node:path";
import { expect, test } from "@playwright/test";

test.describe("API reference", () => {
  test("lists the operations by tag, links within the page and to the OpenAPI JSON, without signing in", async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    // Nothing from a CDN: the product runs behind firewalls.
    const outside: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).origin !== new URL(baseURL ?? "").origin && !r.url().startsWith("data:")) outside.push(r.url());
    });
    await page.goto("/docs/api");
    await expect(page).toHaveURL(/\/docs\/api$/);
    await expect(page).toHaveTitle("API reference · Cuescope");
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" })).toHaveAttribute("href", "/docs/api");

    // The contents lead to the ingest operation.
    const contents = page.getByRole("navigation", { name: "API contents" });
    await contents.getByRole("link", { name: /POST \/api\/v1\/ingest/ }).click();
    await expect(page).toHaveURL(/#op-ingestEvents$/);
    const ingest = page.getByRole("article", { name: "POST /api/v1/ingest", exact: true });
    await expect(ingest).toBeInViewport();
    await page.screenshot({ path: path.join(testInfo.project.outputDir, "api-reference.png") });
    await expect(ingest.getByText("Send a batch of events")).toBeVisible();
    await expect(
      ingest.getByRole("table", { name: "Fields of Request body of ingestEvents" }).getByRole("rowheader", { name: "batch" }),
    ).toBeVisible();
    await expect(
      ingest.getByRole("table", { name: "Error answers of ingestEvents" }).getByRole("rowheader", { name: "413" }),
    ).toBeVisible();

    // A named schema is a link to its section.
    await ingest.getByRole("table", { name: "Fields of Request body of ingestEvents" }).getByRole("link", { name: "Event" }).click();
    await expect(page).toHaveURL(/#schema-Event$/);
    const event = page.getByRole("region", { name: "Event", exact: true });
    await expect(event).toBeInViewport();
    await expect(event.getByRole("rowheader", { name: 'type = "run.started"' })).toBeVisible();

    // The machine-readable document: linked, public, JSON.
    const json = page.getByRole("link", { name: "/api/v1/openapi.json", exact: true });
    await expect(json).toHaveAttribute("href", "/api/v1/openapi.json");
    const response = await request.get((await json.getAttribute("href")) ?? "");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/json/);
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/v1/ingest"].post.operationId).toBe("ingestEvents");

    expect(outside).toEqual([]);
  });
});
