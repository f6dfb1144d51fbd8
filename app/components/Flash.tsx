/** The flash message of the shell (set by a redirect after a successful form, app/utils/flash.server.ts). */
export function Flash({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="alert success" role="status">
      {message}
    </p>
  );
}
