import { runSummaryRoute } from "@/lib/server/http/routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = runSummaryRoute;
