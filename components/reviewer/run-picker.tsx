"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { runsListQuery } from "@/lib/queries/runs";
import styles from "./reviewer-filters.module.css";

const SEARCH_DEBOUNCE_MS = 250;

/**
 * Narrows the audit to one run: a search box (a combobox with a list of suggestions) over the
 * project's runs by run id, task, agent or model — the runs list's own search, 20 newest matches.
 * Choosing a suggestion, or Enter on a run id, filters the audit to that run.
 */
export function RunPicker({ onPick }: { onPick: (runId: string) => void }) {
  const listId = useId();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const runs = useQuery({ ...runsListQuery({ q: search || undefined, limit: 20 }), enabled: search.length > 0 });
  const options = runs.data?.runs ?? [];

  const pick = (runId: string) => {
    setText("");
    setSearch("");
    onPick(runId);
  };

  return (
    <label className={styles.picker}>
      <span className={styles.pickerLabel}>Run</span>
      <input
        type="search"
        className={styles.pickerInput}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        list={listId}
        placeholder="Run id or task…"
        value={text}
        maxLength={200}
        onChange={(e) => {
          const value = e.target.value;
          setText(value);
          // A suggestion chosen from the list: its run id is the whole value.
          if (options.some((run) => run.runId === value)) pick(value);
        }}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || text.trim() === "") return;
          e.preventDefault();
          const exact = options.find((run) => run.runId === text.trim()) ?? (options.length === 1 ? options[0] : undefined);
          pick(exact?.runId ?? text.trim());
        }}
      />
      <datalist id={listId}>
        {options.map((run) => (
          <option key={run.runId} value={run.runId} label={run.task ?? run.runId} />
        ))}
      </datalist>
    </label>
  );
}
