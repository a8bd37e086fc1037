"use client";

/** A button that saves text made on click as a file (a table's CSV: made from what the page shows). */
export function DownloadButton({
  name,
  text,
  label,
  type = "text/csv;charset=utf-8",
}: {
  name: string;
  text: () => string;
  label: string;
  type?: string;
}) {
  return (
    <button
      type="button"
      className="button button-quiet"
      onClick={() => {
        const url = URL.createObjectURL(new Blob([text()], { type }));
        const a = document.createElement("a");
        a.href = url;
        a.download = name;
        a.click();
        URL.revokeObjectURL(url);
      }}
    >
      {label}
    </button>
  );
}
