-- A replay's turn counts (lib/server/replay/replay-jobs.ts) are each run's highest turn + 1 summed
-- over its runs: one run whose last turn is 2,147,483,647 (the largest turn, contract §4) already
-- counts 2,147,483,648 turns, one more than an INTEGER holds, so every replay that selected it failed
-- with "value out of range for type integer". Up to 5,000 runs of that length fit a BIGINT.
--
-- Hand-written SQL (see README, "Migrations"); prisma/schema.prisma declares them BigInt.

ALTER TABLE "replay_jobs"
    ALTER COLUMN "total_turns" TYPE BIGINT,
    ALTER COLUMN "done_turns" TYPE BIGINT;
