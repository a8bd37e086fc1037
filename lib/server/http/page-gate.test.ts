import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { needsSession, pageGate } from "./page-gate";

const SAME = { "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:3000" };

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Request {
  return new Request(`http://127.0.0.1:3000${path}`, { method, headers: { host: "127.0.0.1:3000", ...headers } });
}

afterEach(() => {
  delete process.env.CUESCOPE_ALLOWED_HOSTS;
  delete process.env.CUESCOPE_TRUST_PROXY;
});

describe("pages under a Host that is not this server's (DNS rebinding)", () => {
  it.each([
    "evil.example:3000",
    "EVIL.example",
    "127.0.0.1.nip.io:3000",
    "localhost.evil.example",
    "10.0.0.5:3000",
    "127.0.0.1:3000@evil.example",
  ])("%s: 403 naming the host and CUESCOPE_ALLOWED_HOSTS, for every page and every method, with no cookie", async (host) => {
    for (const [path, method] of [
      ["/", "GET"],
      ["/login", "GET"],
      ["/runs", "GET"],
      ["/login", "POST"],
    ]) {
      const answer = pageGate(get(path, { host, cookie: "cuescope_session=abc", ...SAME }, method))!;
      expect(answer.status).toBe(403);
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await answer.text();
      expect(text).toContain(JSON.stringify(host.toLowerCase()));
      expect(text).toContain("CUESCOPE_ALLOWED_HOSTS");
    }
  });

  it("a request with no Host at all is refused too", async () => {
    const answer = pageGate(new Request("http://127.0.0.1:3000/login"))!;
    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(/no Host header/);
  });

  it.each(["127.0.0.1:3000", "127.8.9.10", "localhost:3000", "LOCALHOST", "app.localhost:3000", "[::1]:3000", "[::1]"])(
    "%s is a loopback name: served",
    (host) => {
      expect(pageGate(get("/login", { host }))).toBeNull();
    },
  );

  it("serves the hosts listed in CUESCOPE_ALLOWED_HOSTS (any case, any port), and only those", () => {
    process.env.CUESCOPE_ALLOWED_HOSTS = " Cuescope.Example.com , 10.0.0.5:8080,[fd00::7]";
    for (const host of ["cuescope.example.com", "CUESCOPE.EXAMPLE.COM:443", "10.0.0.5:3000", "[fd00::7]:3000"]) {
      expect(pageGate(get("/login", { host }))).toBeNull();
    }
    for (const host of ["www.cuescope.example.com", "example.com", "10.0.0.6"]) expect(pageGate(get("/login", { host }))?.status).toBe(403);
  });

  it("behind a trusted proxy the host is its X-Forwarded-Host; without one, X-Forwarded-Host is ignored", () => {
    const forwarded = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(pageGate(get("/login", forwarded))).toBeNull();
    process.env.CUESCOPE_TRUST_PROXY = "1";
    expect(pageGate(get("/login", forwarded))?.status).toBe(403);
    process.env.CUESCOPE_ALLOWED_HOSTS = "evil.example";
    expect(pageGate(get("/login", forwarded))).toBeNull();
  });
});

describe("server actions (any non-GET to a page) from another origin", () => {
  it.each([
    ["Origin: null", { origin: "null" }],
    ["Origin: null from a sandboxed frame", { origin: "null", "sec-fetch-site": "cross-site" }],
    ["another port of this host", { origin: "http://127.0.0.1:3001", "sec-fetch-site": "same-site" }],
    ["another site", { origin: "http://evil.example" }],
    ["no Origin or Sec-Fetch-Site", {}],
  ])("%s: 403 with the reason, not Next's 500", async (_, headers) => {
    for (const path of ["/login", "/runs"]) {
      const answer = pageGate(get(path, { "next-action": "0123abcd", ...headers }, "POST"))!;
      expect(answer.status).toBe(403);
      expect(await answer.text()).toMatch(/^403 Forbidden\. cross-origin request refused: a form of this app \(a server action\)/);
    }
  });

  it("from the app's own pages they go through", () => {
    expect(pageGate(get("/login", SAME, "POST"))).toBeNull();
    expect(pageGate(get("/runs", { origin: "http://127.0.0.1:3000" }, "POST"))).toBeNull();
  });
});

describe("data pages without a session", () => {
  it.each([
    ["/runs", "/runs"],
    ["/runs?sort=-findings&agent=a", "/runs?sort=-findings&agent=a"],
    ["/runs/run-1?turn=4", "/runs/run-1?turn=4"],
    ["/reviewer?_rsc=x1&code=A", "/reviewer?code=A"],
    ["/trends", "/trends"],
    ["/alerts?new=finding&code=STAGE_MISMATCH", "/alerts?new=finding&code=STAGE_MISMATCH"],
    ["/copy", "/copy"],
    ["/copy/policy", "/copy/policy"],
    ["/copy/replay?job=j", "/copy/replay?job=j"],
    ["/copy/replay/j/runs/r/turns/3", "/copy/replay/j/runs/r/turns/3"],
  ])("%s: 307 to the sign-in page before anything renders", (path, next) => {
    for (const method of ["GET", "HEAD"]) {
      const answer = pageGate(get(path, {}, method))!;
      expect(answer.status).toBe(307);
      const location = new URL(answer.headers.get("location")!);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("next")).toBe(next);
    }
    // With a cookie the page itself decides (a dead one redirects there, before streaming).
    expect(pageGate(get(path, { cookie: "theme=dark; cuescope_session=abc" }))).toBeNull();
  });

  it.each(["/", "/login", "/docs/api", "/runsx", "/copyright"])("%s is public", (path) => {
    expect(pageGate(get(path))).toBeNull();
  });

  it("the proxy gates pages only: the API's routes check their own callers (Bearer keys under any Host)", async () => {
    const nextRequest = (path: string, host: string) => new NextRequest(`http://${host}${path}`, { headers: { host } });
    expect(proxy(nextRequest("/api/v1/runs", "evil.example")).headers.get("x-middleware-next")).toBe("1");
    expect(proxy(nextRequest("/runs", "evil.example")).status).toBe(403);
    expect(proxy(nextRequest("/runs", "127.0.0.1:3000")).status).toBe(307);
    expect(proxy(nextRequest("/login", "127.0.0.1:3000")).headers.get("x-middleware-next")).toBe("1");
    expect(proxy(nextRequest("/api/v1/runs/a%ZZ", "127.0.0.1:3000")).status).toBe(400);
  });
});

describe("every page that needs a session redirects before the response starts", () => {
  const app = join(process.cwd(), "app");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  const pages = files(app).filter((file) => file.endsWith(`${sep}page.tsx`));

  it("the proxy's list of data pages is exactly the pages that call requireSession", () => {
    expect(pages.length).toBeGreaterThan(5);
    for (const file of pages) {
      const route = `/${relative(app, file).split(sep).slice(0, -1).join("/")}`.replace(/\[[^\]]+\]/g, "x").replace(/\/\([^)]+\)/g, "");
      const requires = readFileSync(file, "utf8").includes("requireSession(");
      expect(needsSession(route || "/"), `${relative(process.cwd(), file)} (${route})`).toBe(requires);
    }
  });

  it("no loading.tsx or Suspense boundary in app/ starts a 200 response before a page's session check", () => {
    // Next sends the headers (status 200) as soon as a loading.tsx fallback or a <Suspense> streams;
    // a redirect() after that is only a script in the page. A page may still show a skeleton in its
    // client components, once it has a session.
    for (const file of files(app)) {
      expect(file.endsWith(`${sep}loading.tsx`), relative(process.cwd(), file)).toBe(false);
      if (/\.(tsx|ts)$/.test(file)) expect(readFileSync(file, "utf8"), relative(process.cwd(), file)).not.toMatch(/<Suspense\b/);
    }
    expect(existsSync(join(app, "reviewer", "loading.tsx"))).toBe(false);
  });
});
