import { replayJobRoute } from "@/lib/server/http/replay-routes";

export const GET = replayJobRoute;
