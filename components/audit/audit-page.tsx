"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, AUDIT_TARGETS, type TAuditEntry } from "@/lib/contracts";
import { AUDIT_FILTERS, auditExportUrl, auditFiltersOf, auditQuery, type AuditFilters } from "@/lib/queries/audit";
import { useFormatInstant } from "@/components/layout/time-zone";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ListHeader, ListPager, LoadError, listPageStyles } from "@/components/ui/list-page";
import styles from "./audit.module.css";

/** The time filter's choices: a window ending now (the URL keeps the instant it starts at). */
const SINCE = [
  { label: "Any time", hours: 0 },
  { label: "Last 24 hours", hours: 24 },
  { label: "Last 7 days", hours: 24 * 7 },
  { label: "Last 30 days", hours: 24 * 30 },
] as const;

const TARGET_LABELS: Record<TAuditEntry["target"]["kind"], string> = {
  copyVersion: "Copy version",
  policyVersion: "Policy version",
  experiment: "Experiment",
  comment: "Comment",
  review: "Review",
  alertRule: "Alert rule",
  key: "API key",
  member: "Member",
  invitation: "Invitation",
};

const ACTOR_KINDS: Record<TAuditEntry["actor"]["kind"], string> = {
  key: "API key",
  session: "browser session",
  person: "person",
  cli: "server command line",
};

/** `copyVersion.makeDefault` → "Copy version: make default". */
function actionLabel(action: string): string {
  const [target, verb] = action.split(".");
  const words = verb.replace(/([A-Z])/g, " $1").toLowerCase();
  return `${TARGET_LABELS[target as keyof typeof TARGET_LABELS] ?? target}: ${words}`;
}

/**
 * /audit: the project's audit log, newest first — who changed copy and policy versions and the
 * defaults, experiments, keys, and who deleted comments; when, from which address, before → after.
 * The filters, and the page position, are the URL's (shareable; the server prefetches the page).
 */
export function AuditPage() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = auditFiltersOf(params);
  const cursor = params.get("cursor");
  const list = useQuery({ ...auditQuery(filters, cursor), placeholderData: keepPreviousData });
  const format = useFormatInstant();
  // Marks the filter selects once their handlers are attached (a choice made before is lost).
  const hydrated = useHydrated() ? "true" : undefined;

  const hrefWith = (next: AuditFilters, nextCursor: string | null = null) => {
    const query = new URLSearchParams({ ...next, ...(nextCursor ? { cursor: nextCursor } : {}) }).toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const setFilter = (name: (typeof AUDIT_FILTERS)[number], value: string) => {
    const next: AuditFilters = { ...filters };
    if (value) next[name] = value;
    else delete next[name];
    // Another target kind makes the target id meaningless.
    if (name === "target") delete next.targetId;
    router.replace(hrefWith(next), { scroll: false });
  };
  const since = SINCE.find((s) => s.hours > 0 && filters.from && sinceMatches(filters.from, s.hours));

  return (
    <div className={listPageStyles.page}>
      <ListHeader
        title="Audit log"
        meta={
          list.data ? `${list.data.entries.length}${list.data.nextCursor ? "+" : ""} entries on this page, newest first` : "newest first"
        }
        pending={list.isFetching && list.isPlaceholderData}
      />
      <p className={`muted ${styles.intro}`}>
        Every change to copy and policy versions and the project&apos;s defaults, to experiments and API keys, and every deleted comment:
        who made it (the key, and whether through a browser session), when, from which address, and what it was before and after. Entries
        are never changed or deleted.
      </p>
      <form className={styles.filters} aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <select value={filters.action ?? ""} onChange={(e) => setFilter("action", e.target.value)} data-hydrated={hydrated}>
            <option value="">Any action</option>
            {AUDIT_ACTION_NAMES.map((action) => (
              <option key={action} value={action} title={AUDIT_ACTIONS[action]}>
                {actionLabel(action)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target
          <select value={filters.target ?? ""} onChange={(e) => setFilter("target", e.target.value)} data-hydrated={hydrated}>
            <option value="">Anything</option>
            {AUDIT_TARGETS.map((target) => (
              <option key={target} value={target}>
                {TARGET_LABELS[target]}
              </option>
            ))}
          </select>
        </label>
        <label>
          When
          <select
            value={since ? String(since.hours) : filters.from ? "custom" : "0"}
            data-hydrated={hydrated}
            onChange={(e) => {
              const hours = Number(e.target.value);
              setFilter("from", hours > 0 ? new Date(Date.now() - hours * 3_600_000).toISOString() : "");
            }}
          >
            {SINCE.map((s) => (
              <option key={s.hours} value={String(s.hours)}>
                {s.label}
              </option>
            ))}
            {filters.from && !since ? <option value="custom">Since {format(filters.from)}</option> : null}
          </select>
        </label>
        <span className={styles.exports}>
          Export:{" "}
          <a className="button button-quiet" href={auditExportUrl(filters, "csv")} download>
            CSV
          </a>{" "}
          <a className="button button-quiet" href={auditExportUrl(filters, "json")} download>
            JSON
          </a>
        </span>
      </form>
      <ActiveFilters filters={filters} hrefWith={hrefWith} />
      {list.isError ? (
        <LoadError
          title="The audit log could not be loaded"
          message={list.error.message}
          onRetry={() => void list.refetch()}
          firstHref={hrefWith({})}
        />
      ) : !list.data ? (
        <p aria-busy="true">Loading the audit log…</p>
      ) : list.data.entries.length === 0 ? (
        <p className={styles.empty}>{Object.keys(filters).length > 0 ? "No change matches these filters." : "No changes recorded yet."}</p>
      ) : (
        <ScrollRegion label="Audit log entries">
          <table className="data-table">
            <caption className="sr-only">Audit log, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Who</th>
                <th scope="col">From address</th>
                <th scope="col">Change (before → after)</th>
              </tr>
            </thead>
            <tbody>
              {list.data.entries.map((entry) => (
                <tr key={entry.id}>
                  <td className={styles.when}>{format(entry.at)}</td>
                  <td>{actionLabel(entry.action)}</td>
                  <td>
                    <TargetCell entry={entry} />{" "}
                    <Link
                      className={styles.history}
                      href={hrefWith({ target: entry.target.kind, targetId: entry.target.id })}
                      aria-label={`History of ${TARGET_LABELS[entry.target.kind].toLowerCase()} ${entry.target.name ?? entry.target.id}`}
                    >
                      history
                    </Link>
                  </td>
                  <td>
                    {entry.actor.keyId ? (
                      <Link href={hrefWith({ ...filters, actorKeyId: entry.actor.keyId })} title="Only this key's changes">
                        {entry.actor.name}
                      </Link>
                    ) : entry.actor.personId ? (
                      <Link href={hrefWith({ ...filters, actorPersonId: entry.actor.personId })} title="Only this person's changes">
                        {entry.actor.name}
                      </Link>
                    ) : (
                      entry.actor.name
                    )}
                    <span className={styles.sub}>{ACTOR_KINDS[entry.actor.kind]}</span>
                  </td>
                  <td className={styles.address}>{entry.address ?? "—"}</td>
                  <td>
                    <Change before={entry.before} after={entry.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {list.data && list.data.entries.length > 0 ? (
        <ListPager
          info={cursor ? "Older entries" : "Newest entries"}
          firstHref={cursor ? hrefWith(filters) : null}
          nextHref={list.data.nextCursor ? hrefWith(filters, list.data.nextCursor) : null}
        />
      ) : null}
    </div>
  );
}

/** Whether `from` is about `hours` before now (a preset chosen earlier; within 5% of the window). */
function sinceMatches(from: string, hours: number): boolean {
  const ago = Date.now() - Date.parse(from);
  return Math.abs(ago - hours * 3_600_000) <= hours * 3_600_000 * 0.05;
}

function ActiveFilters({ filters, hrefWith }: { filters: AuditFilters; hrefWith: (f: AuditFilters) => string }) {
  const shown = (["targetId", "actorKeyId", "actorPersonId"] as const).filter((name) => filters[name]);
  const label = { targetId: "target", actorKeyId: "key", actorPersonId: "person" } as const;
  if (shown.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label="Other filters">
      {shown.map((name) => {
        const rest = { ...filters };
        delete rest[name];
        return (
          <li key={name}>
            {label[name][0].toUpperCase() + label[name].slice(1)} <code>{filters[name]}</code>{" "}
            <Link href={hrefWith(rest)} aria-label={`Remove the ${label[name]} filter`}>
              ×
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The target's name, linked to its page where it has one. */
function TargetCell({ entry }: { entry: TAuditEntry }) {
  const { kind, id, name } = entry.target;
  const label = name ?? id;
  const href =
    kind === "experiment"
      ? `/experiments/${encodeURIComponent(id)}`
      : kind === "copyVersion"
        ? `/copy?from=${encodeURIComponent(id)}`
        : kind === "policyVersion"
          ? `/copy/policy?from=${encodeURIComponent(id)}`
          : kind === "alertRule"
            ? `/alerts#rule-${encodeURIComponent(id)}`
            : null;
  return (
    <>
      <span className={styles.sub}>{TARGET_LABELS[kind]}</span>
      {href ? (
        <Link className={styles.targetLink} href={href}>
          {label}
        </Link>
      ) : (
        <code>{label}</code>
      )}
    </>
  );
}

/** Before → after, field by field: only the fields that differ (all of them for a creation or a deletion). */
function Change({ before, after }: { before: unknown; after: unknown }) {
  const b = asRecord(before);
  const a = asRecord(after);
  const names = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])].filter(
    (name) => !b || !a || JSON.stringify(b[name]) !== JSON.stringify(a[name]),
  );
  if (names.length === 0) return <span className="muted">no field changed</span>;
  return (
    <dl className={styles.change}>
      {names.map((name) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            {b ? <Value value={b[name]} /> : null}
            {b && a ? (
              <>
                <span aria-hidden="true"> → </span>
                <span className="sr-only"> became </span>
              </>
            ) : null}
            {a ? <Value value={a[name]} /> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value }: { value: unknown }) {
  const text = value === undefined ? "—" : JSON.stringify(value);
  if (text.length <= 80) return <code>{text}</code>;
  return (
    <details className={styles.long}>
      <summary>
        <code>{text.slice(0, 60)}…</code>
      </summary>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
