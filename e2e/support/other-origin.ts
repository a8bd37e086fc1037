import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny web server on another port of the same host: a different origin, but the same site as
 * the app (so SameSite=Lax cookies still go along with its top-level form POSTs). It serves one
 * page, the HTML given.
 */
export async function serveOtherOrigin(port: number, html: () => string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A page that submits a form by itself as soon as it loads. */
export function autoSubmitPage(formHtml: string): string {
  return `<!doctype html><html><body>${formHtml}<script>document.forms[0].submit();</script></body></html>`;
}
