import { runTimelineRoute } from "@/lib/server/http/routes";

export const GET = runTimelineRoute;
