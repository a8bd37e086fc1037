import { otlpLogsRoute } from "@/lib/server/http/otlp-routes";

export const POST = otlpLogsRoute;
