"use client";

import { useId, useState } from "react";
import { MAX_COMMENT_CHARS } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { RenderedMarkdown } from "@/components/ui/markdown";
import styles from "./comments.module.css";

type ComposerProps = {
  /** The textarea's label ("Add a note", "Edit your comment"). */
  label: string;
  submitLabel: string;
  initial?: string;
  busy: boolean;
  /** The server's answer to the last submit, shown next to the field. */
  error: string | null;
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
};

type Render = (source: string) => string;

/** The comment renderer (markdown-it and its entity tables), loaded only when a preview is first asked for. */
let loading: Promise<Render> | null = null;
function loadRenderer(): Promise<Render> {
  loading ??= import("@/lib/markdown/markdown").then((module) => module.renderMarkdown);
  return loading;
}

/** A Markdown textarea with a Write / Preview switch, a character count against the limit, and the error by the field. */
export function CommentComposer({ label, submitLabel, initial = "", busy, error, onSubmit, onCancel }: ComposerProps) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [preview, setPreview] = useState(false);
  // The renderer the preview uses (the server renders the same way when the comment is saved).
  const [render, setRender] = useState<Render | null>(null);
  const over = text.length > MAX_COMMENT_CHARS;
  const empty = text.trim() === "";
  const errorId = `${id}-error`;
  const countId = `${id}-count`;

  return (
    <form
      className={styles.composer}
      onSubmit={(event) => {
        event.preventDefault();
        if (over || empty || busy) return;
        void onSubmit(text).then(
          () => {
            if (!initial) setText("");
            setPreview(false);
          },
          () => undefined, // shown from `error`
        );
      }}
    >
      <label htmlFor={`${id}-text`}>{label}</label>
      {preview ? (
        <div className={`${styles.preview} ${styles.body}`} aria-label={`${label}: preview`} role="region">
          {empty ? (
            <p className={styles.empty}>Nothing to preview.</p>
          ) : render ? (
            <RenderedMarkdown html={render(text)} />
          ) : (
            <p className={styles.empty}>Loading the preview…</p>
          )}
        </div>
      ) : null}
      <textarea
        id={`${id}-text`}
        value={text}
        hidden={preview}
        onChange={(event) => setText(event.target.value)}
        placeholder="Markdown: **strong**, *emphasis*, `code`, - lists, [links](https://…)"
        aria-describedby={error ? `${countId} ${errorId}` : countId}
        aria-invalid={over || Boolean(error) || undefined}
      />
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.row}>
        <span id={countId} className={`${styles.count} ${over ? styles.over : ""}`}>
          {formatNumber(text.length)} / {formatNumber(MAX_COMMENT_CHARS)} characters{over ? " — too long" : ""}
        </span>
        <button
          type="button"
          className="button button-quiet"
          aria-pressed={preview}
          onClick={() => {
            if (!preview && !render) void loadRenderer().then((loaded) => setRender(() => loaded));
            setPreview((p) => !p);
          }}
        >
          {preview ? "Write" : "Preview"}
        </button>
        {onCancel ? (
          <button type="button" className="button button-quiet" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button" disabled={busy || over || empty}>
          {busy ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
