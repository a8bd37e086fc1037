import type { z } from "zod";
import type { AnyEndpoint } from "@/lib/endpoints/endpoint";
import { apiDeleteNoContent, apiGet, apiSend } from "./api-fetch";
import type { ApiInput } from "./api-input";
import { endpointUrl } from "./paths";

/** The contract of an endpoint's usual answer (every endpoint a query or a call reaches has one). */
type Answer<E extends AnyEndpoint> = z.output<NonNullable<E["response"]>>;

function responseOf<E extends AnyEndpoint>(endpoint: E): NonNullable<E["response"]> {
  if (!endpoint.response) throw new Error(`${endpoint.id} answers no JSON contract`);
  return endpoint.response;
}

/**
 * A query's queryFn for an endpoint (lib/endpoints): GET its URL for the input (lib/queries/paths.ts
 * endpointUrl) and parse the answer with its response contract.
 */
export function endpointFetch<E extends AnyEndpoint>(endpoint: E, input: ApiInput) {
  if (endpoint.method !== "GET") throw new Error(`a query reads a GET endpoint; ${endpoint.id} is ${endpoint.method}`);
  return ({ signal }: { signal?: AbortSignal }): Promise<Answer<E>> => apiGet(endpointUrl(endpoint, input), responseOf(endpoint), signal);
}

/** queryOptions of an endpoint's read, carrying the endpoint and the input its queryFn sends (a page's prefetch reads both). */
export type EndpointQuery<O> = O & { endpoint: AnyEndpoint; apiInput: ApiInput };

/** Attaches the endpoint and the input to a read's queryOptions (react-query ignores the extra fields). */
export function withEndpoint<O extends object>(endpoint: AnyEndpoint, apiInput: ApiInput, options: O): EndpointQuery<O> {
  return { ...options, endpoint, apiInput };
}

/**
 * Calls a write endpoint (POST, PUT, PATCH, DELETE) with a JSON body (none for DELETE) and parses its
 * answer with its response contract; an endpoint that answers 204 resolves with nothing.
 */
export function callEndpoint<E extends AnyEndpoint>(
  endpoint: E,
  input: { path?: Record<string, string> },
  body?: unknown,
): Promise<E["response"] extends z.ZodType ? Answer<E> : void> {
  const url = endpointUrl(endpoint, input);
  if (endpoint.method === "GET") throw new Error(`${endpoint.id} is a read: use endpointFetch`);
  if (!endpoint.response) return apiDeleteNoContent(url) as never;
  return apiSend(endpoint.method, url, body, responseOf(endpoint)) as never;
}
