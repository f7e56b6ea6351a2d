/** Simplified marks of the social networks (lucide no longer ships brand icons). */
const iconProps = { viewBox: "0 0 24 24", className: "size-5", "aria-hidden": true } as const;

/** A mark drawn as one filled path. */
function FilledIcon({ path }: { path: string }) {
  return (
    <svg {...iconProps} fill="currentColor">
      <path d={path} />
    </svg>
  );
}

export function LinkedInIcon() {
  return (
    <FilledIcon path="M4 9h3v11H4zM5.5 4a1.75 1.75 0 1 1 0 3.5 1.75 1.75 0 0 1 0-3.5zM10 9h3v1.6c.5-.9 1.7-1.8 3.4-1.8 3.2 0 3.6 2.1 3.6 4.8V20h-3v-5.6c0-1.3 0-3-1.9-3s-2.1 1.4-2.1 2.9V20h-3z" />
  );
}

export function XIcon() {
  return (
    <FilledIcon path="M4 4h4.2l4.1 5.6L17.2 4H20l-6.4 7.3L20.5 20h-4.2l-4.5-6-5.3 6H3.7l6.9-7.8z" />
  );
}

export function InstagramIcon() {
  return (
    <svg {...iconProps} fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="0.8" fill="currentColor" />
    </svg>
  );
}

export function FacebookIcon() {
  return (
    <FilledIcon path="M14 8.6V7c0-.7.4-1 1-1h2V2.5h-3c-3 0-4 1.9-4 4.3v1.8H7.5V12H10v9.5h4V12h2.8l.5-3.4z" />
  );
}
