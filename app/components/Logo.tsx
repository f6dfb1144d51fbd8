export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="9" r="5" fill="#f59e0b" />
      <path d="M4 28 8 15h16l4 13z" fill="#0b5cad" />
      <path d="M6 22h20M11 15l-1.5 13M21 15l1.5 13" stroke="#fff" strokeWidth="1.2" />
    </svg>
  );
}
