/** The Pedal mark, in the theme's primary colours. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <circle cx="16" cy="16" r="7" fill="none" strokeWidth="3" className="stroke-primary-content" />
      <circle cx="16" cy="16" r="2" className="fill-primary-content" />
    </svg>
  );
}
