import { replayMatchingRoute } from "@/lib/server/http/replay-routes";

export const GET = replayMatchingRoute;
