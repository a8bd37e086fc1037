import { runFacetsRoute } from "@/lib/server/http/routes";

export const GET = runFacetsRoute;
