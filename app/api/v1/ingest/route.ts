import { ingestRoute } from "@/lib/server/http/routes";

export const POST = ingestRoute;
