/**
 * The component tests' side of the HTTP boundary: a react-query client as the app's (no retries,
 * nothing refetched on its own), and a stand-in for `fetch` that answers the API paths a test
 * names and records every request. Components are never given mocked modules of our own.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { vi } from "vitest";

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
}

/** Renders `ui` under a QueryClientProvider (a fresh client unless one is given, e.g. with data set). */
export function renderWithClient(ui: ReactElement, client = testQueryClient()): RenderResult & { client: QueryClient } {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return Object.assign(render(ui, { wrapper }), { client });
}

/** One request the component sent: method, path with its query, and the parsed JSON body (POST). */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** An API answer: a JSON value answered 200, or a whole Response (an error, another status). */
type Answer = unknown;
type Handler = (request: SentRequest) => Answer | Promise<Answer>;

/** The JSON error body every API error has (lib/server/http/errors-to-response.ts). */
export function apiError(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

/**
 * Stubs the global `fetch` with the routes given as `"GET /api/v1/…"` (the path with its query
 * string) → handler; a request no route names is a 404 answer. Restore with vi.unstubAllGlobals().
 */
export function fakeApi(routes: Record<string, Handler>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const request: SentRequest = {
        method: init.method ?? "GET",
        path: String(input),
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      };
      sent.push(request);
      const handler = routes[`${request.method} ${request.path}`];
      if (!handler) return apiError(404, "not_found", `no route ${request.method} ${request.path} in this test`);
      const answer = await handler(request);
      return answer instanceof Response ? answer : Response.json(answer);
    }),
  );
  return sent;
}
