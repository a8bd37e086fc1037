import { reviewerFunnelRoute } from "@/lib/server/http/reviewer-routes";

export const GET = reviewerFunnelRoute;
