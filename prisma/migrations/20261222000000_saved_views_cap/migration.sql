-- Saved views: at most 100 per project and page (MAX_SAVED_VIEWS in lib/contracts/views.ts), held
-- by the database (issue 22). Counting in the app and then inserting let concurrent creates all see
-- 99 and all insert (102 of 100 were stored). Here each insert first takes a transaction-scoped
-- advisory lock for its project and page, so the inserts of one page run one after another, and
-- then counts the page's views: a volatile PL/pgSQL function takes a fresh snapshot for each
-- statement under READ COMMITTED, so the count sees every insert committed before the lock was
-- granted (a lock is released only after its transaction's rows are visible). Other pages and
-- projects never wait. The limit is the trigger's argument; the refusal's SQLSTATE is CSV01 (class
-- CS: Cuescope's own, never PostgreSQL's), which lib/server/views/saved-views.ts answers with 409;
-- its test fires 120 creates at once. A view's page never changes after it is made, so only inserts are checked.
--
-- Hand-written SQL (see README, "Migrations"); the trigger is not in prisma/schema.prisma (Prisma
-- has no notation for triggers).

CREATE FUNCTION "saved_views_cap"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cap integer := TG_ARGV[0]::integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('saved_views'), hashtext(NEW."project_id" || '/' || NEW."page"));
  IF (SELECT count(*) FROM "saved_views" WHERE "project_id" = NEW."project_id" AND "page" = NEW."page") >= cap THEN
    RAISE EXCEPTION 'a page keeps at most % saved views', cap
      USING ERRCODE = 'CSV01';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "saved_views_cap"
  BEFORE INSERT ON "saved_views"
  FOR EACH ROW EXECUTE FUNCTION "saved_views_cap"(100);
