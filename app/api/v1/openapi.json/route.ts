import { openApiRoute } from "@/lib/server/http/openapi-route";

export const GET = openApiRoute;
