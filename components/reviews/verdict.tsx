import type { TReviewVerdict } from "@/lib/contracts";
import styles from "./verdict.module.css";

/** How each verdict is said and marked (a shape besides the colour, so it reads without colour). */
export const VERDICT_TEXT: Record<TReviewVerdict, { label: string; mark: string; key: string; help: string }> = {
  justified: { label: "Justified", mark: "✓", key: "1", help: "the dispatch, or the rules' decision, was right" },
  unnecessary: { label: "Unnecessary", mark: "✗", key: "2", help: "the Reviewer was dispatched and should not have been" },
  should_dispatch: { label: "Should have been dispatched", mark: "!", key: "3", help: "it was not dispatched and should have been" },
};

/** A verdict's mark, coloured by kind (the label always goes beside it). */
export function VerdictMark({ verdict }: { verdict: TReviewVerdict }) {
  return (
    <span className={`${styles.mark} ${styles[verdict]}`} aria-hidden="true">
      {VERDICT_TEXT[verdict].mark}
    </span>
  );
}
