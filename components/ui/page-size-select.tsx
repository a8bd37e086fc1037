import styles from "./page-size.module.css";

/** A list page's "Rows a page" choice: the current size and the sizes on offer; the default is left out of the URL by the caller. */
export function PageSizeSelect({ value, sizes, onChange }: { value: number; sizes: readonly number[]; onChange: (size: number) => void }) {
  return (
    <label className={styles.field}>
      Rows a page
      <select className={styles.select} value={String(value)} onChange={(e) => onChange(Number(e.target.value))}>
        {sizes.map((size) => (
          <option key={size} value={String(size)}>
            {size}
          </option>
        ))}
      </select>
    </label>
  );
}
