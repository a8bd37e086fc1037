import { healthRoute } from "@/lib/server/http/health-route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = healthRoute;
