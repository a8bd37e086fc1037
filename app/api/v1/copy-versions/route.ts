import { createCopyVersionRoute, listCopyVersionsRoute } from "@/lib/server/http/version-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = listCopyVersionsRoute;
export const POST = createCopyVersionRoute;
