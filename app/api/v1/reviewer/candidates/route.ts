import { reviewerCandidatesRoute } from "@/lib/server/http/reviewer-routes";

export const GET = reviewerCandidatesRoute;
