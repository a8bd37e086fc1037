import { turnDetailRoute } from "@/lib/server/http/routes";

export const GET = turnDetailRoute;
