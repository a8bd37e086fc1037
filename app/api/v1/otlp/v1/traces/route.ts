import { otlpTracesRoute } from "@/lib/server/http/otlp-routes";

export const POST = otlpTracesRoute;
