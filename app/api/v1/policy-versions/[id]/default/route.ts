import { defaultPolicyVersionRoute } from "@/lib/server/http/version-routes";

export const POST = defaultPolicyVersionRoute;
