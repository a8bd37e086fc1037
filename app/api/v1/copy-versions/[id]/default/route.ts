import { defaultCopyVersionRoute } from "@/lib/server/http/version-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const POST = defaultCopyVersionRoute;
