import { runOtlpRecordsRoute } from "@/lib/server/http/otlp-routes";

export const GET = runOtlpRecordsRoute;
