/** The Cuescope mark (same drawing as public/favicon.svg). */
export function BrandMark({ size = 20 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1f3a5f" />
      <circle cx="15" cy="17" r="8.5" fill="none" stroke="#ffffff" strokeWidth="2.5" />
      <path d="M15 10.5v3M15 20.5v3M8.5 17h3M18.5 17h3" stroke="#ffffff" strokeWidth="2" strokeLinecap="round" />
      <circle cx="24.5" cy="7.5" r="3.5" fill="#e69f00" />
    </svg>
  );
}
