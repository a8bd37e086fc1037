import { replayListRoute, startReplayRoute } from "@/lib/server/http/replay-routes";

export const GET = replayListRoute;
export const POST = startReplayRoute;
