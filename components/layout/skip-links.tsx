/**
 * The page's first focusable elements: links past the header, shown only while focused
 * (WCAG 2.4.1). "Skip to content" goes to the main landmark on every page; the others appear only
 * on a page that holds their target (app/globals.css hides each while no element has its id).
 */
export const MAIN_ID = "main";

export const SKIP_TARGETS = [
  { id: MAIN_ID, label: "Skip to content" },
  { id: "turn-inspector", label: "Skip to turn inspector" },
  { id: "findings", label: "Skip to findings" },
] as const;

export function SkipLinks() {
  return (
    <div className="skip-links">
      {SKIP_TARGETS.map(({ id, label }) => (
        <a key={id} href={`#${id}`} className="skip-link" data-skip-to={id}>
          {label}
        </a>
      ))}
    </div>
  );
}
