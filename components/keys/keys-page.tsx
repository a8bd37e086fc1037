"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { KEY_SCOPE_HELP, KEY_SCOPES, type TApiKey, type TKeyScope } from "@/lib/contracts";
import { createKey, keyKeys, keysQuery, revokeKey } from "@/lib/queries/keys";
import { useFormatInstant } from "@/components/layout/time-zone";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { Panel } from "@/components/ui/panel";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useHydrated } from "@/components/ui/use-hydrated";
import styles from "./keys.module.css";

const SCOPE_NAMES: Record<TKeyScope, string> = { ingest: "Ingest only", read: "Read", admin: "Admin" };

/**
 * /keys: the project's API keys — make one with a name and a scope (its secret shown once), see
 * when each was last used, revoke one. Every change is in the audit log.
 */
export function KeysPage() {
  const list = useQuery(keysQuery());
  return (
    <div className={styles.page}>
      <header>
        <h1>API keys</h1>
        <p className="muted">
          Agents send telemetry with a key, and people sign in with one. Give each agent its own <strong>ingest only</strong> key; a{" "}
          <strong>read</strong> key signs in to look at everything and change nothing; an <strong>admin</strong> key may also change
          versions and defaults, experiments, comments, replays and keys. Only a key&apos;s hash is stored: its secret is shown once, when
          it is made. Every key made or revoked is in the <Link href="/audit?target=key">audit log</Link>.
        </p>
      </header>
      <NewKey />
      <Panel id="key-list" title="Keys" meta={list.data ? `${list.data.keys.filter((k) => !k.revokedAt).length} live` : undefined}>
        {list.isError ? (
          <p role="alert" className={styles.error}>
            The keys could not be loaded: {list.error.message}
          </p>
        ) : !list.data ? (
          <p aria-busy="true">Loading keys…</p>
        ) : (
          <KeyTable keys={list.data.keys} />
        )}
      </Panel>
    </div>
  );
}

function NewKey() {
  const client = useQueryClient();
  const nameId = useId();
  const [label, setLabel] = useState("");
  const [scope, setScope] = useState<TKeyScope>("ingest");
  // Before hydration the form would submit itself natively (a GET of /keys?scope=…) and make no key.
  const hydrated = useHydrated() ? "true" : undefined;
  const create = useMutation({
    mutationFn: () => createKey({ label, scope }),
    onSuccess: () => {
      setLabel("");
      void client.invalidateQueries({ queryKey: keyKeys.all });
    },
  });
  return (
    <Panel id="key-new" title="New key" meta="its secret is shown once">
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          maxLength={80}
          placeholder="e.g. etf-agent on build box"
          data-hydrated={hydrated}
        />
        <fieldset className={styles.scopes}>
          <legend>Scope</legend>
          {KEY_SCOPES.map((option) => (
            <label key={option}>
              <input type="radio" name="scope" value={option} checked={scope === option} onChange={() => setScope(option)} />
              <strong>{SCOPE_NAMES[option]}</strong> <span className="muted">— {KEY_SCOPE_HELP[option]}</span>
            </label>
          ))}
        </fieldset>
        <p>
          <button type="submit" className="button" disabled={create.isPending} data-hydrated={hydrated}>
            {create.isPending ? "Making the key…" : "Make the key"}
          </button>
        </p>
        {create.isError ? (
          <p role="alert" className={styles.error}>
            The key was not made: {create.error.message}
          </p>
        ) : null}
      </form>
      {create.data ? (
        <OneTimeSecret
          heading={`Key “${create.data.key.label ?? create.data.key.prefix}” made.`}
          hint="Copy its secret now: it is not shown again."
          label="The new key's secret"
          value={create.data.secret}
        />
      ) : null}
    </Panel>
  );
}

function KeyTable({ keys }: { keys: TApiKey[] }) {
  const format = useFormatInstant();
  if (keys.length === 0) return <p>No keys yet.</p>;
  return (
    <ScrollRegion label="API keys">
      <table className="data-table">
        <caption className="sr-only">API keys, live ones first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Scope</th>
            <th scope="col">Made</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row">
                {key.label ?? <span className="muted">(no name)</span>}
                {key.current ? <span className={styles.current}> · this session&apos;s key</span> : null}
              </th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{SCOPE_NAMES[key.scope]}</td>
              <td>{format(key.createdAt)}</td>
              <td>{key.lastUsedAt ? format(key.lastUsedAt) : <span className="muted">never</span>}</td>
              <td>{key.revokedAt ? `revoked ${format(key.revokedAt)}` : <RevokeButton apiKey={key} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Revoke, asked twice: a revoked key is refused at once, with every session opened with it. */
function RevokeButton({ apiKey }: { apiKey: TApiKey }) {
  const client = useQueryClient();
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const hydrated = useHydrated() ? "true" : undefined;
  const revoke = useMutation({
    mutationFn: () => revokeKey(apiKey.id),
    onSettled: () => client.invalidateQueries({ queryKey: keyKeys.all }),
    onSuccess: () => {
      // Revoking the session's own key ends the session: the sign-in page is next.
      if (apiKey.current) router.push("/login");
    },
  });
  const name = apiKey.label ?? apiKey.prefix;
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-quiet"
        onClick={() => setAsking(true)}
        aria-label={`Revoke ${name}`}
        data-hydrated={hydrated}
      >
        Revoke
      </button>
    );
  }
  return (
    <span className={styles.confirm}>
      <span>
        {apiKey.current ? "This is your session's key: you will be signed out. " : ""}Revoke “{name}”?
      </span>{" "}
      <button type="button" className="button" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
        Yes, revoke
      </button>{" "}
      <button type="button" className="button button-quiet" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {revoke.isError ? (
        <span role="alert" className={styles.error}>
          {" "}
          Not revoked: {revoke.error.message}
        </span>
      ) : null}
    </span>
  );
}
