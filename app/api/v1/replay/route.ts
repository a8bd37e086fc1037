import { startReplayRoute } from "@/lib/server/http/replay-routes";

export const POST = startReplayRoute;
