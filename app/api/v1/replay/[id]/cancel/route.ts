import { cancelReplayRoute } from "@/lib/server/http/replay-routes";

export const POST = cancelReplayRoute;
