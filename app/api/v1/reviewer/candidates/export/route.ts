import { reviewerExportRoute } from "@/lib/server/http/reviewer-routes";

export const GET = reviewerExportRoute;
