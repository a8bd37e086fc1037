import { runTriageRoute } from "@/lib/server/http/routes";

export const GET = runTriageRoute;
