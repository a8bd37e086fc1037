"use client";

import { useState } from "react";
import { PLACEHOLDERS, REMINDER_KIND, type TPolicy, type TReminderKey, type TTemplates, type TTurnDecision } from "@/lib/contracts";
import type { RefitTurn } from "@/lib/copy/preview";
import { templateNames } from "@/lib/copy/templates";
import { problemsAt, type CopyProblem } from "@/lib/copy/validate";
import styles from "./copy.module.css";
import { TemplateRow } from "./template-row";

type Props = {
  reminderKey: TReminderKey;
  templates: Readonly<TTemplates>;
  baseTemplates: Readonly<TTemplates>;
  turn: TTurnDecision | null;
  policy: TPolicy | null;
  problems: readonly CopyProblem[];
  /** The turn refitted with the whole draft (see TemplateRow); null when there is no turn or the draft has a problem. */
  refit?: RefitTurn | null;
  onChange: (name: string, text: string) => void;
  onAdd: (name: string) => void;
  onRemove: (name: string) => void;
};

const KEY_TITLES: Record<TReminderKey, string> = {
  requests: "Requests",
  time: "Time",
  context: "Context",
  edits: "Edits",
  review: "Review",
};

/** One key's templates (`*`, stage templates, `exhausted` for edits), its placeholders and a way to add a stage. */
export function KeyTemplates({
  reminderKey,
  templates,
  baseTemplates,
  turn,
  policy,
  problems,
  refit = null,
  onChange,
  onAdd,
  onRemove,
}: Props) {
  const [stage, setStage] = useState("");
  const keyProblems = problemsAt(problems, reminderKey, null);
  const names = templateNames(templates);
  // A missing `*` still gets a row, so its problem shows where the user can fix it.
  if (!names.includes("*")) names.unshift("*");
  const stageTaken = stage !== "" && templates[stage] !== undefined;
  return (
    <section className={styles.keySection} aria-labelledby={`key-${reminderKey}`}>
      <header className={styles.keyHead}>
        <h3 id={`key-${reminderKey}`}>
          {KEY_TITLES[reminderKey]} <span className={styles.kind}>{REMINDER_KIND[reminderKey]}</span>
        </h3>
        <p className={styles.placeholders}>
          Placeholders:{" "}
          {PLACEHOLDERS[reminderKey].map((p) => (
            <code key={p}>{`{${p}}`}</code>
          ))}
        </p>
      </header>
      {keyProblems.length ? (
        <div role="alert">
          <ul className={styles.problems}>
            {keyProblems.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {names.map((name) => (
        <TemplateRow
          key={name}
          reminderKey={reminderKey}
          name={name}
          templates={templates}
          baseTemplates={baseTemplates}
          turn={turn}
          policy={policy}
          problems={problemsAt(problems, reminderKey, name)}
          refit={refit}
          onChange={(text) => onChange(name, text)}
          onRemove={name === "*" ? null : () => onRemove(name)}
        />
      ))}
      <form
        className={styles.addTemplate}
        onSubmit={(e) => {
          e.preventDefault();
          if (!stage || stageTaken) return;
          onAdd(stage);
          setStage("");
        }}
      >
        <label>
          {reminderKey === "review" ? "Checkpoint" : "Stage"}
          <input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={stage}
            aria-label={`New ${reminderKey} ${reminderKey === "review" ? "checkpoint" : "stage"} template`}
            onChange={(e) => setStage(e.target.value.replace(/^0+/, ""))}
          />
        </label>
        <button type="submit" className="button button-quiet" disabled={!stage || stageTaken}>
          {/* The key follows the visible words, so the name starts with what is on screen (WCAG 2.5.3). */}
          Add {reminderKey === "review" ? "checkpoint" : "stage"} template<span className="sr-only"> for {reminderKey}</span>
        </button>
        {reminderKey === "edits" && templates.exhausted === undefined ? (
          <button type="button" className="button button-quiet" onClick={() => onAdd("exhausted")}>
            Add exhausted-block template<span className="sr-only"> for edits</span>
          </button>
        ) : null}
        {stageTaken ? <span className="muted">That template exists.</span> : null}
      </form>
    </section>
  );
}
