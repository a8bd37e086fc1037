"use client";

import { Popover } from "@/components/ui/popover";
import { RUN_COLUMNS } from "./run-columns";
import styles from "./runs-toolbar.module.css";

/** Shows or hides the runs table's columns (the task always shows): a menu of checkboxes. */
export function ColumnChooser({
  columns,
  onChange,
  onReset,
}: {
  columns: readonly string[];
  onChange: (id: string, shown: boolean) => void;
  onReset: () => void;
}) {
  return (
    <Popover label="Columns" align="end">
      {() => (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Columns shown</legend>
          {RUN_COLUMNS.map((column) => (
            <label key={column.id} className={styles.check}>
              <input
                type="checkbox"
                checked={column.fixed || columns.includes(column.id)}
                disabled={column.fixed}
                onChange={(e) => onChange(column.id, e.target.checked)}
              />
              {column.label}
              {column.unit ? <span className={styles.unit}> ({column.unit})</span> : null}
              {column.fixed ? <span className={styles.unit}> — always shown</span> : null}
            </label>
          ))}
          <button type="button" className={styles.linkButton} onClick={onReset}>
            Default columns
          </button>
        </fieldset>
      )}
    </Popover>
  );
}
