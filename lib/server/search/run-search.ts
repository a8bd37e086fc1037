import "server-only";
import {
  MAX_SEARCH_MATCHES,
  MAX_SEARCH_TERMS,
  SEARCH_KINDS,
  type TRunSearch,
  type TRunSearchQuery,
  type TSearchKind,
} from "@/lib/contracts";
import { collectMatches, countedTerms, foldQuery, type TermHit } from "@/lib/derived/search/search-match";
import type { Database } from "@/lib/server/db";
import { SEARCH_SINCE_VERSION } from "@/lib/server/rebuild/derived-version";
import { findRun } from "@/lib/server/runs/find-run";

type Row = { n: number; kind: TSearchKind | null; term: string | null; bucket: number | null; mask: string | null };

/**
 * `GET /api/v1/runs/:runId/search?q=…&kind=…` (docs/search.md): the turns of a run of the caller's
 * project holding a matching reminder text, finding code, action kind or block id, read from the
 * search index its rebuild stored (run_search_terms), never from its decisions or events.
 *
 * One statement: it walks the run's distinct (kind, term) through the table's key, one index probe
 * per term (a skip scan: a long run repeats few terms, the digits of its texts being folded), keeps
 * those that match (lib/derived/search/search-match.ts's rule, in SQL: a substring of the normalized
 * text, a prefix of the lowercased code, kind or id) up to MAX_SEARCH_TERMS, then reads those terms'
 * rows, one 64-digit mask per bucket of 256 turns holding the term. What it reads grows with the
 * run's distinct terms and the buckets that hold a match, not with its turns or events. A run whose
 * stored rebuild has no index yet answers `indexed: false`.
 */
export async function searchRun(db: Database, projectId: string, runId: string, query: TRunSearchQuery): Promise<TRunSearch> {
  const run = await findRun(db, projectId, runId);
  const kind = query.kind ?? null;
  const head = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId, runPk: run.id } },
    select: { derivedVersion: true },
  });
  const answer: TRunSearch = {
    runId: run.runId,
    q: query.q,
    kind,
    indexed: head !== null && head.derivedVersion >= SEARCH_SINCE_VERSION,
    terms: [],
    termsTruncated: false,
    total: 0,
    matches: [],
    truncated: false,
  };
  if (!answer.indexed) return answer;

  const folded = foldQuery(query.q);
  const ofKind = kind === null ? "" : ` AND "kind" = $7`;
  const rows = await db.prisma.$queryRawUnsafe<Row[]>(
    `WITH RECURSIVE walk AS (
       (SELECT "kind", "term", "folded" FROM "run_search_terms"
         WHERE "project_id" = $1 AND "run_pk" = $2${ofKind}
         ORDER BY "kind", "term" LIMIT 1)
       UNION ALL
       SELECT n.* FROM walk w CROSS JOIN LATERAL (
         SELECT "kind", "term", "folded" FROM "run_search_terms"
          WHERE "project_id" = $1 AND "run_pk" = $2${ofKind} AND ("kind", "term") > (w."kind", w."term")
          ORDER BY "kind", "term" LIMIT 1) n
     ),
     matched AS (
       SELECT "kind", "term", (row_number() OVER (ORDER BY array_position($6::text[], "kind"), "term") - 1)::int AS "n"
         FROM (SELECT "kind", "term" FROM walk
                WHERE CASE WHEN "kind" = 'text' THEN strpos("folded", $3::text) > 0 ELSE starts_with("folded", $4::text) END
                LIMIT $5::int) m
     )
     SELECT m."n", m."kind", m."term", NULL::int AS "bucket", NULL::text AS "mask" FROM matched m
     UNION ALL
     -- Each matched term's rows through the key (LATERAL: never a scan of the run's rows to hash-join them).
     SELECT m."n", NULL, NULL, s."bucket", s."mask"
       FROM matched m CROSS JOIN LATERAL (
         SELECT "bucket", "mask" FROM "run_search_terms"
          WHERE "project_id" = $1 AND "run_pk" = $2 AND "kind" = m."kind" AND "term" = m."term" OFFSET 0) s`,
    projectId,
    run.id,
    folded.text,
    folded.prefix,
    MAX_SEARCH_TERMS + 1,
    [...SEARCH_KINDS],
    ...(kind === null ? [] : [kind]),
  );

  const terms: { kind: TSearchKind; term: string }[] = [];
  const hits: TermHit[] = [];
  for (const row of rows) {
    if (row.n >= MAX_SEARCH_TERMS) {
      answer.termsTruncated = true;
      continue;
    }
    if (row.bucket === null) terms[row.n] = { kind: row.kind!, term: row.term! };
    else hits.push({ term: row.n, bucket: row.bucket, mask: row.mask! });
  }
  const collected = collectMatches(terms.length, hits, MAX_SEARCH_MATCHES);
  answer.terms = countedTerms(terms, collected.termTurns);
  answer.total = collected.total;
  answer.matches = collected.matches;
  answer.truncated = collected.truncated;
  return answer;
}
