import { getDb } from "../../../../lib/server/db";
import { errorResponse, json } from "../../../../lib/server/http/errors-to-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/v1/health — which database this server uses; no key needed, no data shown. */
export async function GET(): Promise<Response> {
  try {
    const db = await getDb();
    await db.prisma.$queryRaw`SELECT 1`;
    return json(200, { ok: true, service: "cuescope", database: db.kind });
  } catch (error) {
    return errorResponse(error);
  }
}
