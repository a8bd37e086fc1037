import { runDecisionsRoute } from "@/lib/server/http/routes";

export const GET = runDecisionsRoute;
