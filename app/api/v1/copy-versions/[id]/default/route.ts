import { defaultCopyVersionRoute } from "@/lib/server/http/version-routes";

export const POST = defaultCopyVersionRoute;
