import { replayJobRoute } from "@/lib/server/http/replay-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = replayJobRoute;
