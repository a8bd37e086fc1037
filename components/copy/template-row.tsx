"use client";

import { useId } from "react";
import type { TPolicy, TReminderKey, TTemplates, TTurnDecision } from "@/lib/contracts";
import { fitVerdict, fitVerdictText } from "@/lib/copy/fit-order";
import { previewTemplate, type RefitTurn, type TemplatePreview } from "@/lib/copy/preview";
import { templateLabel } from "@/lib/copy/templates";
import { formatBytes } from "@/lib/format";
import styles from "./copy.module.css";

type Props = {
  reminderKey: TReminderKey;
  name: string;
  templates: Readonly<TTemplates>;
  /** The parent version's templates of this key (for the byte difference). */
  baseTemplates: Readonly<TTemplates>;
  turn: TTurnDecision | null;
  policy: TPolicy | null;
  problems: string[];
  /**
   * The previewed turn refitted with the whole draft (R8 order), or null while the draft has a problem
   * elsewhere (the order's outcome is then not claimed) or no turn is chosen.
   */
  refit: RefitTurn | null;
  onChange: (text: string) => void;
  onRemove: (() => void) | null;
};

/** One template: its text, the contract's problems right under it, and its live preview on the chosen turn. */
export function TemplateRow({ reminderKey, name, templates, baseTemplates, turn, policy, problems, refit, onChange, onRemove }: Props) {
  const id = useId();
  const label = `${reminderKey} · ${templateLabel(reminderKey, name)}`;
  const preview = turn ? previewTemplate(reminderKey, name, templates, turn, policy) : null;
  const base = turn && baseTemplates[name] !== undefined ? previewTemplate(reminderKey, name, baseTemplates, turn, policy) : null;
  return (
    <div className={styles.templateRow} data-template={`${reminderKey}.${name}`}>
      <div className={styles.templateHead}>
        <label htmlFor={`${id}-text`} className={styles.templateName}>
          {templateLabel(reminderKey, name)}
          <code className={styles.templateKey}>{name}</code>
        </label>
        {onRemove ? (
          <button type="button" className="link-button" onClick={onRemove} aria-label={`Remove template ${label}`}>
            Remove
          </button>
        ) : null}
      </div>
      <textarea
        id={`${id}-text`}
        className={problems.length ? `${styles.templateText} ${styles.invalid}` : styles.templateText}
        aria-label={`Template ${label}`}
        aria-invalid={problems.length > 0}
        aria-describedby={problems.length ? `${id}-problems` : `${id}-preview`}
        value={templates[name] ?? ""}
        rows={2}
        spellCheck
        onChange={(e) => onChange(e.target.value)}
      />
      {problems.length ? (
        <div id={`${id}-problems`} role="alert">
          <ul className={styles.problems}>
            {problems.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div id={`${id}-preview`}>
        {!preview ? (
          <p className="muted">Choose a turn to preview.</p>
        ) : problems.length ? (
          <p className={styles.previewHeld} data-testid="preview-held">
            No preview or fit while this template is invalid: {problems.join("; ")}
          </p>
        ) : (
          <PreviewLine preview={preview} base={base} refit={refit} />
        )}
      </div>
    </div>
  );
}

function PreviewLine({ preview, base, refit }: { preview: TemplatePreview; base: TemplatePreview | null; refit: RefitTurn | null }) {
  if (preview.unavailable) return <p className={styles.previewUnavailable}>Not shown on this turn: {preview.unavailable}.</p>;
  const delta = base && !base.unavailable ? preview.bytes - base.bytes : null;
  const verdict = refit ? fitVerdict(preview, refit) : null;
  const fitsOrder =
    verdict?.kind === "ordered" ? verdict.included : verdict ? verdict.kind === "unlimited" || verdict.fitsAlone : preview.fits;
  return (
    <div className={styles.preview}>
      <p className={styles.previewText} data-testid="template-text">
        {preview.text}
      </p>
      <p className={styles.previewFacts}>
        <span data-testid="template-bytes">{formatBytes(preview.bytes)}</span>
        {delta ? (
          <span className={delta > 0 ? styles.more : styles.fewer}>
            {delta > 0 ? `+${formatBytes(delta)}` : `−${formatBytes(-delta)}`} vs parent
          </span>
        ) : null}
        {verdict ? (
          <span className={fitsOrder ? styles.fits : styles.noFit} data-testid="template-fit">
            {fitVerdictText(verdict)}
          </span>
        ) : preview.freeBytes === null ? (
          <span className={styles.fits}>no byte limit on this run</span>
        ) : (
          <span className={preview.fits ? styles.fits : styles.noFit} data-testid="template-fit">
            {preview.fits ? "fits alone" : "✕ too long even alone"} in {formatBytes(preview.freeBytes)} free; order not judged while another
            template is invalid
          </span>
        )}
        {preview.subject ? <span>block {preview.subject}</span> : null}
        <span>
          {preview.inUse ? "● picked" : "○ not picked"} at {preview.key === "review" ? "checkpoint" : "stage"} {preview.stage}
        </span>
      </p>
    </div>
  );
}
