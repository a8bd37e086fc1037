/**
 * The colour theme: System (follows the OS, the default), Light or Dark. The choice is kept in a
 * cookie the server reads, so the page is rendered with `<html data-theme="…">` and never flashes
 * the other theme; app/globals.css (and the CSS modules with dark colours) switch on that attribute,
 * and on `prefers-color-scheme` only while it is "system".
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "cuescope-theme";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

export const THEME_LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** A cookie's value as a theme; anything else (missing, edited by hand) is "system". */
export function parseTheme(value: string | undefined | null): Theme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}

/** The `document.cookie` assignment that keeps a choice for a year (readable by the page, sent on same-site requests). */
export function themeCookie(theme: Theme, secure: boolean): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Switches the open page to a theme and remembers it, without a reload. */
export function applyTheme(theme: Theme, doc: Document = document): void {
  doc.documentElement.dataset.theme = theme;
  doc.cookie = themeCookie(theme, doc.location?.protocol === "https:");
}
