import { runSummaryRoute } from "@/lib/server/http/routes";

export const GET = runSummaryRoute;
