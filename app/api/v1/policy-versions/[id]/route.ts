import { getPolicyVersionRoute } from "@/lib/server/http/version-routes";

export const GET = getPolicyVersionRoute;
