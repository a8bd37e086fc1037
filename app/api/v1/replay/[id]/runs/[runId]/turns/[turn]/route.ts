import { replayTurnRoute } from "@/lib/server/http/replay-routes";

export const GET = replayTurnRoute;
