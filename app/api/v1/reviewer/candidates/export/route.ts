import { reviewerExportRoute } from "@/lib/server/http/reviewer-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = reviewerExportRoute;
